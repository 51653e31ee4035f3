package render

import (
	"fmt"
	"path/filepath"
	"strings"

	"gonum.org/v1/plot/vg"
)

// Request is a figure's options as a user gives them (graphalloc's
// --format, --size, --font-size, --dpi, --linear, --log, --title and
// --legend): strings to parse and check. Nil and "" mean not given.
type Request struct {
	Format, Size, Legend, Title string
	FontSize                    *float64
	DPI                         *int
	Linear, Log                 []string // axes "x", "y"
}

// Options checks r, each error naming its option ("--size: …"), and
// returns the options of a figure written to path (named pathName in
// errors): the format from r.Format, else from path's extension.
func (r Request) Options(pathName, path string) (Options, error) {
	var o Options
	ext := strings.TrimPrefix(strings.ToLower(filepath.Ext(path)), ".")
	known := func(s string) bool { return s == FormatPNG || s == FormatSVG || s == FormatPDF }
	switch {
	case r.Format != "" && !known(r.Format):
		return o, fmt.Errorf("--format: unknown format %q (allowed: %s)", r.Format, strings.Join(Formats, ", "))
	case r.Format != "" && known(ext) && ext != r.Format:
		return o, fmt.Errorf("--format %s, but %s %s ends in .%s", r.Format, pathName, path, ext)
	case r.Format != "":
		o.Format = r.Format
	case known(ext):
		o.Format = ext
	default:
		return o, fmt.Errorf("%s: %q: name a .png, .svg or .pdf file, or give --format", pathName, path)
	}
	if r.Size != "" {
		w, h, err := ParseSize(r.Size)
		if err != nil {
			return o, fmt.Errorf("--size: %v", strings.TrimPrefix(err.Error(), "render: "))
		}
		o.Width, o.Height = w, h
	}
	// 0 stands for the default in Options: refused here.
	if r.FontSize != nil {
		o.FontSize = vg.Length(*r.FontSize)
		if err := (Options{FontSize: o.FontSize}).Check(); err != nil || *r.FontSize == 0 {
			return o, fmt.Errorf("--font-size: need 4 to 72 points, got %g", *r.FontSize)
		}
	}
	if r.DPI != nil {
		if o.Format != FormatPNG {
			return o, fmt.Errorf("--dpi: a resolution applies to PNG only, not to %s", o.Format)
		}
		o.DPI = *r.DPI
		if err := (Options{DPI: o.DPI}).Check(); err != nil || *r.DPI == 0 {
			return o, fmt.Errorf("--dpi: need 10 to 2400 dots per inch, got %d", *r.DPI)
		}
	}
	for _, a := range []struct {
		flag, scale string
		axes        []string
	}{{"--linear", AxisLinear, r.Linear}, {"--log", AxisLog, r.Log}} {
		for _, axis := range a.axes {
			var to *string
			switch strings.TrimSpace(axis) {
			case "x":
				to = &o.XScale
			case "y":
				to = &o.YScale
			default:
				return o, fmt.Errorf("%s: unknown axis %q (allowed: x, y)", a.flag, axis)
			}
			if *to != "" && *to != a.scale {
				return o, fmt.Errorf("--linear and --log both name axis %s", strings.TrimSpace(axis))
			}
			*to = a.scale
		}
	}
	o.Title = r.Title
	switch r.Legend {
	case "":
	case LegendOutside, LegendInside, LegendNone:
		o.Legend = r.Legend
	default:
		return o, fmt.Errorf("--legend: unknown place %q (allowed: outside, inside, none)", r.Legend)
	}
	if err := o.Check(); err != nil {
		// What the checks above leave: the size's range.
		return o, fmt.Errorf("--size: %s", strings.TrimPrefix(err.Error(), "render: "))
	}
	return o, nil
}
