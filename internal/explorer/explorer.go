// Package explorer is the web explorer that `graphalloc serve` starts:
// its page, script and style (web/, embedded, so no network is needed)
// and its HTTP server (Server). The server streams a run's trials to the
// page and writes its downloads; it parses and sets runs up through a
// Planner, which the command gives it, so that a request runs exactly
// what `graphalloc run` with the same flags runs. It guards the machine
// it runs on: a Host allow-list and a refusal of cross-site requests
// (Guard), files only under --data (DataDir), caps on n·trials and
// m·trials, one memory budget for all requests (Budget), and a run that
// stops when its client leaves (Slots, the request's context).
//
// It imports alloc, graphgen, queue, results and study. /api/queue runs
// the supermarket model as `graphalloc queue` does (a QueuePlanner).
package explorer

import "embed"

// Files holds web/: index.html, app.js, style.css.
//
//go:embed web
var Files embed.FS
