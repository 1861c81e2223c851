-- wrk script for the Pao benches. Arguments (after --): mode lo hi nonce [members dir threads]
--   mode: withdraw | transfer | transfer-out | wallet | bare | bare-screen | health | bare-health
--     | login | slip | bare-withdraw | bare-transfer | bare-transfer-out | bare-slip
--   lo, hi: the bench members to spread over (lo = hi: one hot member); for slip, the range of
--     unused slips (bench/slips.py): thread t of n sends slips lo + t - 1, lo + t - 1 + n, …
--     each once, slip k on behalf of member (k - 1) % members + 1, read from dir/k.png; for
--     bare-slip, the slips to send over and over (its handler claims no transfer)
--   nonce: makes Idempotency-Keys unique across rounds and runs
-- done() prints one JSON line that bench/http.py reads (max_counter: the most requests one
-- thread made, which bounds the slips a run used).
local threads = {}
local bare_bodies = {
  ["bare-withdraw"] = '{"amount":1}',
  ["bare-transfer"] = '{"from":"WALLET","to":"JOKER","amount":1}',
  ["bare-transfer-out"] = '{"from":"JOKER","to":"WALLET","amount":1}',
}

function setup(thread)
  table.insert(threads, thread)
  thread:set("tid", #threads)
end

function init(args)
  mode, lo, hi, nonce = args[1], tonumber(args[2]), tonumber(args[3]), args[4]
  members, slip_dir, nthreads = tonumber(args[5] or "1"), args[6], tonumber(args[7] or "1")
  counter = 0
  math.randomseed(os.time() + tid * 7919)
end

function request()
  local i = math.random(lo, hi)
  counter = counter + 1
  if mode == "withdraw" then
    return wrk.format("POST", "/api/wallet/withdraw", {
      ["Authorization"] = "Bearer bench-token-" .. i,
      ["Content-Type"] = "application/json",
      ["Idempotency-Key"] = nonce .. "-" .. tid .. "-" .. counter,
    }, '{"amount":1}')
  elseif mode == "transfer" then
    return wrk.format("POST", "/api/wallet/transfer", {
      ["Authorization"] = "Bearer bench-token-" .. i,
      ["Content-Type"] = "application/json",
      ["Idempotency-Key"] = nonce .. "-" .. tid .. "-" .. counter,
    }, '{"from":"WALLET","to":"JOKER","amount":1}')
  elseif mode == "transfer-out" then
    return wrk.format("POST", "/api/wallet/transfer", {
      ["Authorization"] = "Bearer bench-token-" .. i,
      ["Content-Type"] = "application/json",
      ["Idempotency-Key"] = nonce .. "-" .. tid .. "-" .. counter,
    }, '{"from":"JOKER","to":"WALLET","amount":1}')
  elseif mode == "slip" or mode == "bare-slip" then
    local k = lo + (tid - 1) + nthreads * (counter - 1)
    if mode == "bare-slip" then
      k = lo + ((tid - 1) + nthreads * (counter - 1)) % (hi - lo + 1)
    end
    local member = (k - 1) % members + 1
    local image = ""
    local file = k <= hi and io.open(slip_dir .. "/" .. k .. ".png", "rb")
    if file then
      image = file:read("*a")
      file:close()
    end
    -- No slip left: an empty file, answered 400 (SLIP_NO_FILE) and counted as an error.
    local boundary = "benchslip" .. nonce
    local body = "--" .. boundary .. "\r\n" ..
      'Content-Disposition: form-data; name="file"; filename="slip.png"\r\n' ..
      "Content-Type: image/png\r\n\r\n" .. image .. "\r\n--" .. boundary .. "--\r\n"
    local path = mode == "slip" and "/api/wallet/slip" or "/bench/bare-script/slip"
    return wrk.format("POST", path, {
      ["Authorization"] = "Bearer bench-token-" .. member,
      ["Content-Type"] = "multipart/form-data; boundary=" .. boundary,
      ["Idempotency-Key"] = nonce .. "-" .. tid .. "-" .. counter,
    }, body)
  elseif mode == "wallet" then
    return wrk.format("GET", "/api/wallet", { ["Authorization"] = "Bearer bench-token-" .. i })
  elseif mode == "health" then
    return wrk.format("GET", "/healthz")
  elseif mode == "bare-withdraw" or mode == "bare-transfer" or mode == "bare-transfer-out" then
    -- The same request to the path's bare handler (bench/bare_script.py).
    local script = string.gsub(string.sub(mode, 6), "-", "_")
    return wrk.format("POST", "/bench/bare-script/" .. script, {
      ["Authorization"] = "Bearer bench-token-" .. i,
      ["Content-Type"] = "application/json",
      ["Idempotency-Key"] = nonce .. "-" .. tid .. "-" .. counter,
    }, bare_bodies[mode])
  elseif mode == "bare-health" then
    return wrk.format("GET", "/bench/bare-health")
  elseif mode == "bare" then
    return wrk.format("GET", "/bench/bare?token=bench-token-" .. i)
  elseif mode == "bare-screen" then
    return wrk.format("GET", "/bench/bare-screen?token=bench-token-" .. i)
  elseif mode == "login" then
    return wrk.format("POST", "/api/login", { ["Content-Type"] = "application/json" },
      string.format('{"username":"08%08d","password":"bench-pass-1"}', i))
  end
end

function done(summary, latency, requests)
  local e = summary.errors
  local max_counter = 0
  for _, thread in ipairs(threads) do
    max_counter = math.max(max_counter, thread:get("counter") or 0)
  end
  io.write(string.format(
    '{"requests": %d, "duration_us": %d, "errors": %d, "status_errors": %d, "p50_us": %d, "p99_us": %d, "max_counter": %d}\n',
    summary.requests, summary.duration, e.connect + e.read + e.write + e.timeout, e.status,
    latency:percentile(50), latency:percentile(99), max_counter))
end
