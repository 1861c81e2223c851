"""The sandbox LINE platform's page: a tester plays a LINE user chatting with the operator.

Plain HTML and a little inline JavaScript over the JSON API beside it (:mod:`.tester`): the
user (kept in this browser's storage), a chat that polls for Pao's replies and pushes, a box
to write, an image picker, a sticker button, and the failures of LINE's endpoints.
"""

from __future__ import annotations

PAGE_HTML = """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Sandbox LINE</title>
<style>
 body { font-family: system-ui, sans-serif; margin: 0; padding: 12px; background: #eef3f7;
        color: #1d1d1d; max-width: 640px; }
 h1 { font-size: 1.4rem; margin: 4px 0 12px; }
 fieldset { background: #fff; border: 1px solid #b7c4bd; border-radius: 8px;
            margin: 0 0 14px; padding: 10px 12px; }
 legend { font-weight: 600; padding: 0 4px; }
 label { display: block; margin: 8px 0 2px; }
 input, select, textarea { width: 100%; box-sizing: border-box; padding: 8px;
            font-size: 1rem; border: 1px solid #6b7b73; border-radius: 6px; }
 button { margin: 8px 6px 0 0; padding: 8px 12px; font-size: 1rem; border: 0;
          border-radius: 6px; background: #06813a; color: #fff; cursor: pointer; }
 ol { list-style: none; padding: 0; margin: 0; min-height: 120px; }
 li { margin: 6px 0; padding: 8px 10px; border-radius: 12px; max-width: 85%;
      white-space: pre-wrap; word-break: break-word; }
 li.user { background: #8de055; margin-left: auto; }
 li.bot { background: #fff; border: 1px solid #ccd; }
 li img { max-width: 200px; display: block; }
 .via { font-size: .75rem; color: #555; }
 .chips button { background: #fff; color: #06813a; border: 1px solid #06813a; }
 .out { margin-top: 8px; }
</style>
</head>
<body>
<main>
<h1>Sandbox LINE</h1>
<p>Play a LINE user writing to the operator's Official Account. Messages reach Pao as signed
webhooks; Pao's replies and pushes appear below.</p>

<fieldset>
 <legend>LINE user</legend>
 <label for="user-name">Display name</label>
 <input id="user-name" autocomplete="off" value="Sandbox user">
 <label for="user-language">Language</label>
 <select id="user-language"><option value="th">th</option><option value="lo">lo</option>
  <option value="en">en</option><option value="ja">ja</option></select>
 <button type="button" id="user-save">Start as a new user</button>
 <div class="out" id="user-out" role="status" aria-live="polite"></div>
</fieldset>

<fieldset>
 <legend>Chat</legend>
 <ol id="chat" aria-label="LINE chat" aria-live="polite"></ol>
 <label for="text">Message</label>
 <textarea id="text" rows="2"></textarea>
 <button type="button" id="send-text">Send</button>
 <button type="button" id="send-sticker">Send a sticker</button>
 <button type="button" id="follow">Follow</button>
 <button type="button" id="unfollow">Unfollow</button>
 <label for="image">Image</label>
 <input id="image" type="file" accept="image/*">
 <button type="button" id="send-image">Send the image</button>
 <div class="out" id="send-out" role="status" aria-live="polite"></div>
</fieldset>

<fieldset>
 <legend>Make LINE's endpoints fail</legend>
 <label for="fail-endpoint">Endpoint</label>
 <select id="fail-endpoint"><option>reply</option><option>push</option>
  <option>content</option><option>profile</option></select>
 <label for="fail-status">Answer</label>
 <select id="fail-status"><option value="400">400 invalid reply token</option>
  <option value="429">429 rate limit</option><option value="500">500 server error</option></select>
 <label for="fail-times">Next calls</label>
 <input id="fail-times" type="number" min="0" max="100" value="1">
 <button type="button" id="fail">Plan the failure</button>
 <div class="out" id="fail-out" role="status" aria-live="polite"></div>
</fieldset>
</main>
<script>
(function () {
  var $ = function (id) { return document.getElementById(id); };
  var user = JSON.parse(localStorage.getItem('sandbox-line-user') || 'null');
  function post(url, body) {
    return fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json' },
                        body: JSON.stringify(body) })
      .then(function (r) { return r.json().then(function (j) { return { ok: r.ok, body: j }; }); });
  }
  function showUser() {
    $('user-out').textContent =
      user ? 'You are ' + user.displayName + ' (' + user.userId + ')' : '';
  }
  function saveUser() {
    var name = $('user-name').value.trim() || 'Sandbox user';
    return post('/sandbox/line/api/users', { displayName: name,
                                             language: $('user-language').value })
      .then(function (r) {
        user = r.body; localStorage.setItem('sandbox-line-user', JSON.stringify(user));
        $('chat').innerHTML = ''; showUser(); return user;
      });
  }
  function ensureUser() { return user ? Promise.resolve(user) : saveUser(); }
  function send(body) {
    return ensureUser().then(function (u) {
      body.userId = u.userId;
      return post('/sandbox/line/api/send', body);
    }).then(function (r) {
      $('send-out').textContent = r.ok ? 'Sent (Pao answered ' + r.body.webhookStatus + ')'
                                       : 'Refused: ' + r.body.message;
      refresh();
    });
  }
  function chip(action) {
    var b = document.createElement('button');
    b.type = 'button'; b.textContent = action.label;
    b.addEventListener('click', function () {
      if (action.type === 'postback') send({ type: 'postback', data: action.data });
      else if (action.type === 'message') send({ type: 'text', text: action.text });
      else if (action.uri) window.open(action.uri, '_blank', 'noopener');
    });
    return b;
  }
  function render(entry) {
    var li = document.createElement('li');
    li.className = entry.side;
    var m = entry.message;
    if (m.type === 'image' && entry.side === 'bot') {
      var img = document.createElement('img'); img.src = m.originalContentUrl; img.alt = 'Image';
      li.appendChild(img);
    } else if (m.type === 'image') {
      li.textContent = '[image]';
    } else if (m.type === 'sticker') {
      li.textContent = '[sticker ' + m.packageId + '/' + m.stickerId + ']';
    } else if (m.type === 'template') {
      li.textContent = m.template.text;
      var row = document.createElement('div'); row.className = 'chips';
      m.template.actions.forEach(function (a) { row.appendChild(chip(a)); });
      li.appendChild(row);
    } else if (m.type === 'text') {
      li.textContent = m.text;
    } else {
      li.textContent = '[' + m.type + ']';
    }
    if (m.quickReply && m.quickReply.items) {
      var chips = document.createElement('div'); chips.className = 'chips';
      m.quickReply.items.forEach(function (i) { chips.appendChild(chip(i.action)); });
      li.appendChild(chips);
    }
    if (entry.via) {
      var via = document.createElement('div'); via.className = 'via'; via.textContent = entry.via;
      li.appendChild(via);
    }
    return li;
  }
  var shown = 0;
  function refresh() {
    if (!user) return;
    fetch('/sandbox/line/api/chat?userId=' + encodeURIComponent(user.userId))
      .then(function (r) { return r.json(); })
      .then(function (entries) {
        if (entries.length === shown) return;
        var list = $('chat'); list.innerHTML = '';
        entries.forEach(function (e) { list.appendChild(render(e)); });
        shown = entries.length;
      }).catch(function () {});
  }
  $('user-save').addEventListener('click', function () { shown = 0; saveUser(); });
  $('send-text').addEventListener('click', function () {
    var text = $('text').value;
    if (!text.trim()) return;
    send({ type: 'text', text: text }).then(function () { $('text').value = ''; });
  });
  $('send-sticker').addEventListener('click', function () {
    send({ type: 'sticker', packageId: '446', stickerId: '1988', keywords: ['happy', 'smile'] });
  });
  $('follow').addEventListener('click', function () { send({ type: 'follow' }); });
  $('unfollow').addEventListener('click', function () { send({ type: 'unfollow' }); });
  $('send-image').addEventListener('click', function () {
    var file = $('image').files[0];
    if (!file) return;
    var reader = new FileReader();
    reader.onload = function () {
      send({ type: 'image', imageBase64: String(reader.result).split(',')[1] });
    };
    reader.readAsDataURL(file);
  });
  $('fail').addEventListener('click', function () {
    post('/sandbox/line/api/failures', { endpoint: $('fail-endpoint').value,
      status: Number($('fail-status').value), times: Number($('fail-times').value) })
      .then(function (r) { $('fail-out').textContent = r.ok ? 'Planned' : 'Refused'; });
  });
  showUser();
  refresh();
  setInterval(refresh, 1000);
})();
</script>
</body>
</html>
"""
