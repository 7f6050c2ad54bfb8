/* global document, window, EventSource, DOMParser */
// The embeddable view's live part (server/http/embed-page.ts, decision 046): it follows the tree's event stream and,
// when a square around the piece changes (or the tree changed too much to say which), fetches the view again and
// puts its new content in place. A piece taken down answers the small not-on-show page, which ends the following.
(function () {
  'use strict';
  var main = document.querySelector('main[data-tree]');
  if (!main || typeof EventSource === 'undefined') return;
  var tree = main.getAttribute('data-tree');
  var row = Number(main.getAttribute('data-row'));
  var column = Number(main.getAttribute('data-column'));
  var radius = Number(main.getAttribute('data-radius'));
  // From the version the view was drawn at: a copy a cache kept catches up on what changed since.
  var since = main.getAttribute('data-version');
  var source = new EventSource('/api/tree/' + encodeURIComponent(tree) + '/events?since=' + since);
  var waiting = null;

  function near(r, c) {
    return Math.abs(r - row) <= radius && Math.abs(c - column) <= radius;
  }

  function replaceWith(html) {
    var next = new DOMParser().parseFromString(html, 'text/html');
    var content = next.querySelector('main');
    var current = document.querySelector('main');
    if (!content || !current) return;
    current.replaceWith(document.adoptNode(content));
    document.title = next.title;
    if (!content.hasAttribute('data-tree')) source.close();
  }

  function refresh() {
    if (waiting !== null) return;
    // Changes come in bursts (a publish opens squares around it): one fetch for the burst.
    waiting = window.setTimeout(function () {
      waiting = null;
      fetch(window.location.href, { cache: 'no-store' })
        .then(function (answer) {
          return answer.status === 200 || answer.status === 404 ? answer.text() : null;
        })
        .then(function (html) {
          if (html) replaceWith(html);
        })
        .catch(function () {
          // Offline for a moment: the next change tries again.
        });
    }, 250);
  }

  source.addEventListener('changes', function (event) {
    var changes = JSON.parse(event.data);
    for (var i = 0; i < changes.count; i++) {
      if (near(changes.row[i], changes.col[i])) return refresh();
    }
  });
  // The stream opens with the tree's version (no `since`); a later one says the changes were too many to carry.
  source.addEventListener('version', function (event) {
    if (JSON.parse(event.data).since !== undefined) refresh();
  });
  source.addEventListener('resync', refresh);
  // Said on the page (a test waits for it before changing the tree).
  source.addEventListener('open', function () {
    document.documentElement.setAttribute('data-live', 'open');
  });
})();
