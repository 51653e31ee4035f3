package main

import (
	"bytes"
	"encoding/xml"
	"image/png"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// mustRun runs graphalloc with args and fails the test unless it exits 0.
func mustRun(t *testing.T, args ...string) string {
	t.Helper()
	out, errs, code := invoke(args...)
	if code != 0 {
		t.Fatalf("graphalloc %s: exit %d: %s", strings.Join(args, " "), code, errs)
	}
	return out
}

func readFile(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// pdfPage matches a page object of a PDF (not the /Pages tree).
var pdfPage = regexp.MustCompile(`/Type\s*/Page[^s]`)

// plot redraws a saved compare JSON into a PNG, an SVG and a PDF that
// open, and its PNG is, byte for byte, the one compare --plot drew.
func TestPlotRedrawsCompare(t *testing.T) {
	dir := t.TempDir()
	at := func(name string) string { return filepath.Join(dir, name) }
	grid := []string{"compare", "-g", "cycle", "-g", "regular:degree=4", "-g", "complete", "-n", "2^8,2^9", "-t", "3"}
	mustRun(t, append(grid, "-f", "json", "-o", at("grid.json"), "--plot", at("compare.png"))...)

	mustRun(t, "plot", at("grid.json"), "-o", at("redrawn.png"))
	if !bytes.Equal(readFile(t, at("redrawn.png")), readFile(t, at("compare.png"))) {
		t.Error("the redrawn PNG differs from compare --plot's")
	}
	if _, err := png.Decode(bytes.NewReader(readFile(t, at("redrawn.png")))); err != nil {
		t.Errorf("PNG: %v", err)
	}

	mustRun(t, "plot", at("grid.json"), "-o", at("fig.svg"), "--legend", "inside", "--title", "two-choice")
	dec := xml.NewDecoder(bytes.NewReader(readFile(t, at("fig.svg"))))
	root := ""
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("SVG: %v", err)
		}
		if se, ok := tok.(xml.StartElement); ok && root == "" {
			root = se.Name.Local
		}
	}
	if root != "svg" {
		t.Errorf("SVG root element %q", root)
	}

	mustRun(t, "plot", at("grid.json"), "-o", at("fig.pdf"), "--size", "17cmx7cm", "--font-size", "8", "--log", "x", "--linear", "y")
	pdf := readFile(t, at("fig.pdf"))
	if !bytes.HasPrefix(pdf, []byte("%PDF-")) || len(pdfPage.FindAll(pdf, -1)) != 1 {
		t.Errorf("PDF: starts %.8q, %d pages", pdf, len(pdfPage.FindAll(pdf, -1)))
	}

	// The size and resolution asked for: 16 cm × 10 cm at 150 dpi is
	// 944.9 × 590.6 pixels.
	mustRun(t, "plot", at("grid.json"), "-o", at("small.png"), "--size", "16cmx10cm", "--dpi", "150")
	img, err := png.Decode(bytes.NewReader(readFile(t, at("small.png"))))
	if err != nil || img.Bounds().Dx() != 945 || img.Bounds().Dy() != 591 {
		t.Errorf("16cmx10cm at 150 dpi: %v, %v", img.Bounds(), err)
	}

	// Merged shards redraw the figure of the whole grid.
	for _, s := range []string{"0/2", "1/2"} {
		mustRun(t, append(grid, "--shard", s, "-f", "json", "-o", at("shard"+s[:1]+".json"))...)
	}
	mustRun(t, "merge", at("shard0.json"), at("shard1.json"), "-f", "json", "-o", at("merged.json"))
	mustRun(t, "plot", at("merged.json"), "-o", at("merged.png"))
	if !bytes.Equal(readFile(t, at("merged.png")), readFile(t, at("compare.png"))) {
		t.Error("the merged shards' figure differs from the whole grid's")
	}
}

// plot redraws a study's figure from its JSON report as study --plot drew
// it, and a run's from its file.
func TestPlotRedrawsStudyAndRun(t *testing.T) {
	dir := t.TempDir()
	at := func(name string) string { return filepath.Join(dir, name) }
	mustRun(t, "study", "unbalanced", "--tiny", "-f", "json", "-o", at("study.json"), "--plot", at("study.png"))
	mustRun(t, "plot", at("study.json"), "-o", at("redrawn.png"))
	if !bytes.Equal(readFile(t, at("redrawn.png")), readFile(t, at("study.png"))) {
		t.Error("the redrawn study figure differs from study --plot's")
	}

	mustRun(t, "run", "-n", "2^8", "-m", "20n", "-t", "3", "--every", "2n", "--profile", "-f", "jsonl", "-o", at("run.jsonl"))
	mustRun(t, "plot", at("run.jsonl"), "-o", at("run.png"))
	if _, err := png.Decode(bytes.NewReader(readFile(t, at("run.png")))); err != nil {
		t.Errorf("run figure: %v", err)
	}
	mustRun(t, "plot", at("run.jsonl"), "-o", at("run.pdf"))
}

// Bad input exits 2 with one line, before any figure is written.
func TestPlotBadInput(t *testing.T) {
	dir := t.TempDir()
	at := func(name string) string { return filepath.Join(dir, name) }
	os.WriteFile(at("grid.csv"), []byte("topology,n\ncycle,64\n"), 0o644)
	os.WriteFile(at("other.json"), []byte(`{"name": "not a result"}`), 0o644)
	os.WriteFile(at("old-study.json"), []byte(`{"study": "heavy", "tables": []}`), 0o644)
	os.WriteFile(at("empty.json"), nil, 0o644)
	mustRun(t, "compare", "-g", "cycle", "-n", "2^6", "-t", "2", "-f", "json", "-o", at("grid.json"))
	good := at("grid.json")
	cases := []struct {
		name string
		args []string
		want string
	}{
		{"a CSV", []string{at("grid.csv"), "-o", at("f.png")}, "not JSON"},
		{"other JSON", []string{at("other.json"), "-o", at("f.png")}, "plot reads"},
		{"a report without its figure", []string{at("old-study.json"), "-o", at("f.png")}, "holds no figure"},
		{"an empty file", []string{at("empty.json"), "-o", at("f.png")}, "not JSON"},
		{"a missing file", []string{at("nope.json"), "-o", at("f.png")}, "cannot read"},
		{"no file", []string{"-o", at("f.png")}, "name one result file"},
		{"two files", []string{good, good, "-o", at("f.png")}, "unexpected argument"},
		{"no -o", []string{good}, "--output"},
		{"unknown extension", []string{good, "-o", at("f.gif")}, "--output"},
		{"unknown format", []string{good, "-o", at("f.png"), "--format", "gif"}, "--format"},
		{"format against extension", []string{good, "-o", at("f.png"), "--format", "svg"}, "--format"},
		{"size without height", []string{good, "-o", at("f.png"), "--size", "12cm"}, "--size"},
		{"size without unit", []string{good, "-o", at("f.png"), "--size", "12x8"}, "--size"},
		{"size too small", []string{good, "-o", at("f.png"), "--size", "1cmx1cm"}, "--size"},
		{"legend on top", []string{good, "-o", at("f.png"), "--legend", "top"}, "--legend"},
		{"axis z", []string{good, "-o", at("f.png"), "--log", "z"}, "--log"},
		{"both scales", []string{good, "-o", at("f.png"), "--log", "x", "--linear", "x"}, "both"},
		{"dpi 0", []string{good, "-o", at("f.png"), "--dpi", "0"}, "--dpi"},
		{"dpi of an SVG", []string{good, "-o", at("f.svg"), "--dpi", "300"}, "--dpi"},
		{"font size 1", []string{good, "-o", at("f.png"), "--font-size", "1"}, "--font-size"},
		{"font size 0", []string{good, "-o", at("f.png"), "--font-size", "0"}, "--font-size"},
		{"too many pixels", []string{good, "-o", at("f.png"), "--size", "100cmx50cm", "--dpi", "1200"}, "pixels"},
		{"too small for the panels", []string{good, "-o", at("f.png"), "--size", "3cmx3cm"}, "no room"},
		{"ylim upside down", []string{good, "-o", at("f.png"), "--ylim", "5:1"}, "--ylim"},
		{"ylim of one number", []string{good, "-o", at("f.png"), "--ylim", "5"}, "--ylim"},
		{"ylim of panel 0", []string{good, "-o", at("f.png"), "--ylim", "0=1:5"}, "--ylim"},
		{"ylim of a panel the figure lacks", []string{good, "-o", at("f.png"), "--ylim", "3=1:5"}, "panel 3"},
		{"ylim at 0 on a log axis", []string{good, "-o", at("f.png"), "--ylim", "1=0:5"}, "logarithmic"},
		{"bounds not drawn", []string{good, "-o", at("f.png"), "--bounds", "xyz"}, "no bound x"},
		{"bounds not letters", []string{good, "-o", at("f.png"), "--bounds", "A1"}, "--bounds"},
		{"a panel the figure lacks", []string{good, "-o", at("f.png"), "--panel", "9"}, "--panel"},
		{"panel 0", []string{good, "-o", at("f.png"), "--panel", "0"}, "--panel"},
		{"log of axis z in panel 1", []string{good, "-o", at("f.png"), "--log", "1=z"}, "--log"},
		{"unwritable path", []string{good, "-o", filepath.Join(dir, "no", "such", "dir", "f.png")}, "cannot write"},
		{"a directory", []string{good, "-o", dir}, "is a directory"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			out, errs, code := invoke(append([]string{"plot"}, tc.args...)...)
			checkBadInput(t, out, errs, code, tc.want)
			if _, err := os.Stat(at("f.png")); err == nil {
				t.Error("a figure was written")
			}
			entries, _ := os.ReadDir(dir)
			for _, e := range entries {
				if strings.HasPrefix(e.Name(), ".") {
					t.Errorf("left behind %s", e.Name())
				}
			}
		})
	}
	out, _, code := invoke("plot", "--help")
	if code != 0 || !strings.Contains(out, "Examples:") || !strings.Contains(out, "--legend") {
		t.Errorf("plot --help: exit %d", code)
	}
}
