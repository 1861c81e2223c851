"""The sandbox bank's one HTML page: a tester acts as a player's bank.

Plain HTML with a little inline JavaScript calling the JSON API beside it. When the tester is
logged in to Pao in the same browser, it pre-fills their registered account (``/api/wallet``)
and lists the operator's bank accounts (``/api/lookup/deposit``); both can also be typed.
"""

from __future__ import annotations

from pao.sandbox.bank.service import CLEARING_CODES

_BANK_OPTIONS = "".join(f'<option value="{code}">{code}</option>' for code in CLEARING_CODES)

PAGE_HTML = """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Sandbox bank</title>
<style>
 body { font-family: system-ui, sans-serif; margin: 0; padding: 12px; background: #f4f6f5;
        color: #1d1d1d; max-width: 640px; }
 h1 { font-size: 1.4rem; margin: 4px 0 12px; }
 fieldset { background: #fff; border: 1px solid #b7c4bd; border-radius: 8px;
            margin: 0 0 14px; padding: 10px 12px; }
 legend { font-weight: 600; padding: 0 4px; }
 label { display: block; margin: 8px 0 2px; }
 input, select, textarea { width: 100%; box-sizing: border-box; padding: 8px;
            font-size: 1rem; border: 1px solid #6b7b73; border-radius: 6px; }
 button { margin-top: 10px; padding: 10px 14px; font-size: 1rem; border: 0;
          border-radius: 6px; background: #14683f; color: #fff; cursor: pointer; }
 .out { margin-top: 8px; white-space: pre-wrap; word-break: break-all; }
 .out a { color: #0b4f8a; font-weight: 600; }
</style>
</head>
<body>
<main>
<h1>Sandbox bank</h1>
<p>Act as a player's bank: transfer to the operator, download the slip, pay a QR or a
gateway order. Test money only.</p>

<fieldset>
 <legend>Your bank account</legend>
 <label for="from-bank">Your bank</label>
 <select id="from-bank">__BANKS__</select>
 <label for="from-account">Your account number</label>
 <input id="from-account" inputmode="numeric" autocomplete="off">
 <label for="from-name">Your account name</label>
 <input id="from-name" autocomplete="off">
</fieldset>

<fieldset>
 <legend>Transfer to the operator</legend>
 <label for="operator-account">Operator account</label>
 <select id="operator-account"><option value="">Type it below</option></select>
 <label for="to-bank">Receiving bank</label>
 <select id="to-bank">__BANKS__</select>
 <label for="to-account">Receiving account number</label>
 <input id="to-account" inputmode="numeric" autocomplete="off">
 <label for="transfer-amount">Amount to transfer</label>
 <input id="transfer-amount" type="number" min="0.01" step="0.01" inputmode="decimal">
 <button type="button" id="transfer">Transfer</button>
 <div class="out" id="transfer-out" role="status" aria-live="polite"></div>
</fieldset>

<fieldset>
 <legend>Pay a QR code</legend>
 <label for="qr-payload">QR payload</label>
 <textarea id="qr-payload" rows="3"></textarea>
 <label for="qr-amount">Amount (only for a QR without an amount)</label>
 <input id="qr-amount" type="number" min="0.01" step="0.01" inputmode="decimal">
 <button type="button" id="pay-qr">Pay QR</button>
 <div class="out" id="qr-out" role="status" aria-live="polite"></div>
</fieldset>

<fieldset>
 <legend>Pay a gateway order</legend>
 <label for="gateway-code">Gateway code</label>
 <input id="gateway-code" autocomplete="off" placeholder="WW">
 <label for="gateway-order">Order id</label>
 <input id="gateway-order" autocomplete="off">
 <button type="button" id="pay-gateway">Pay order</button>
 <div class="out" id="gateway-out" role="status" aria-live="polite"></div>
</fieldset>
</main>
<script>
(function () {
  var $ = function (id) { return document.getElementById(id); };
  var token = localStorage.getItem('token') || sessionStorage.getItem('token');
  var auth = token ? { Authorization: 'Bearer ' + token } : {};
  function post(url, body) {
    return fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json' },
                        body: JSON.stringify(body) })
      .then(function (r) { return r.json().then(function (j) { return { ok: r.ok, body: j }; }); });
  }
  function from() {
    return { fromBank: $('from-bank').value, fromAccount: $('from-account').value.trim(),
             fromName: $('from-name').value.trim() };
  }
  function num(id) { var v = $(id).value; return v === '' ? null : Number(v); }
  if (token) {
    fetch('/api/wallet', { headers: auth }).then(function (r) { return r.ok ? r.json() : null; })
      .then(function (w) {
        if (!w || !w.bankAccount) return;
        $('from-bank').value = w.bankAccount.bankCode;
        $('from-account').value = w.bankAccount.bankAccountNo;
        $('from-name').value = w.bankAccount.bankAccountName;
      }).catch(function () {});
  }
  fetch('/api/lookup/deposit', { headers: auth })
    .then(function (r) { return r.ok ? r.json() : null; })
    .then(function (d) {
      if (!d || !d.banks) return;
      d.banks.forEach(function (b) {
        if (b.bankType === 'PAYMENT' || !b.bankAccountNo) return;
        var o = document.createElement('option');
        o.value = b.bankCode + ':' + b.bankAccountNo;
        o.textContent = b.bankCode + ' ' + b.bankAccountNo + ' ' + (b.bankAccountName || '');
        $('operator-account').appendChild(o);
      });
    }).catch(function () {});
  $('operator-account').addEventListener('change', function (e) {
    var v = e.target.value.split(':');
    if (v.length === 2) { $('to-bank').value = v[0]; $('to-account').value = v[1]; }
  });
  $('transfer').addEventListener('click', function () {
    var body = from();
    body.toBank = $('to-bank').value; body.toAccount = $('to-account').value.trim();
    body.amount = num('transfer-amount');
    $('transfer-out').textContent = 'Sending…';
    post('/sandbox/bank/api/transfers', body).then(function (r) {
      var out = $('transfer-out');
      if (!r.ok) {
        out.textContent = 'Refused: ' + (r.body.code || JSON.stringify(r.body));
        return;
      }
      out.textContent = 'Transferred. Reference ' + r.body.reference + '. ';
      var a = document.createElement('a');
      a.href = r.body.slipUrl; a.download = 'slip-' + r.body.reference + '.png';
      a.textContent = 'Download slip';
      out.appendChild(a);
    });
  });
  $('pay-qr').addEventListener('click', function () {
    var body = from();
    body.payload = $('qr-payload').value.trim(); body.amount = num('qr-amount');
    $('qr-out').textContent = 'Paying…';
    post('/sandbox/bank/api/qr-payments', body).then(function (r) {
      $('qr-out').textContent = r.ok
        ? 'Paid ' + r.body.amount + ' ' + r.body.currency + '. Reference ' + r.body.reference +
          '. Operator notified: ' +
          (r.body.notified === 200 ? 'yes' : 'no (' + r.body.notified + ')')
        : 'Refused: ' + (r.body.code || JSON.stringify(r.body));
    });
  });
  $('pay-gateway').addEventListener('click', function () {
    var body = { gateway: $('gateway-code').value.trim(),
                 orderId: $('gateway-order').value.trim() };
    $('gateway-out').textContent = 'Paying…';
    post('/sandbox/bank/api/gateway-payments', body).then(function (r) {
      $('gateway-out').textContent = r.ok && r.body.status < 300
        ? 'Order paid.' : 'Refused: ' + JSON.stringify(r.body);
    });
  });
})();
</script>
</body>
</html>
""".replace("__BANKS__", _BANK_OPTIONS)
