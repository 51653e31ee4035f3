// Package codegen writes the files of the module's code generators
// (alloc/gen_loops.go, alloc/gen_dynamic.go and queue/gen_loops.go, each run
// by go generate): a template executed on its data, formatted as Go source.
// A generator stops with log.Fatal on any error: it runs at development
// time, never in the toolkit.
package codegen

import (
	"bytes"
	"go/format"
	"log"
	"os"
	"text/template"
)

// Execute executes t on data and returns the text.
func Execute(t *template.Template, data any) []byte {
	var b bytes.Buffer
	if err := t.Execute(&b, data); err != nil {
		log.Fatal(err)
	}
	return b.Bytes()
}

// Write formats src as Go source and writes it to file. When src does not
// parse, it writes src unformatted, to show where the template went wrong,
// and stops with the error.
func Write(file string, src []byte) {
	out, err := format.Source(src)
	if err != nil {
		os.WriteFile(file, src, 0o644)
		log.Fatalf("%s: %v", file, err)
	}
	if err := os.WriteFile(file, out, 0o644); err != nil {
		log.Fatal(err)
	}
}
