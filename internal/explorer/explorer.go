// Package explorer holds the web explorer's page, script and style, served
// by `graphalloc serve` from the binary itself (no network needed).
package explorer

import "embed"

// Files holds web/: index.html, app.js, style.css.
//
//go:embed web
var Files embed.FS
