package render

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	"gonum.org/v1/plot/vg"
)

// Request is a figure's options as a user gives them (graphalloc's
// --format, --size, --font-size, --dpi, --linear, --log, --ylim, --bounds,
// --title and --legend): strings to parse and check. Nil and "" mean not
// given.
type Request struct {
	Format, Size, Legend, Title string
	FontSize                    *float64
	DPI                         *int
	// Linear and Log are axes "x", "y" of every panel, or "P=x", "P=y" of
	// panel P alone (1 for the first).
	Linear, Log []string
	// YLim are y limits "LO:HI" of every panel, or "P=LO:HI" of panel P.
	YLim []string
	// Bounds is "none" or the letters of the bounds to draw (ParseBounds).
	Bounds string
	// Panel is the one panel to draw (1 for the first); nil for all.
	Panel *int
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
	if err := r.panelOptions(&o); err != nil {
		return o, err
	}
	if r.Panel != nil {
		if *r.Panel < 1 {
			return o, fmt.Errorf("--panel: a panel is a number from 1, got %d", *r.Panel)
		}
		o.Panel = *r.Panel
	}
	if r.Bounds != "" {
		letters, none, err := ParseBounds(r.Bounds)
		if err != nil {
			return o, fmt.Errorf("--bounds: %v", err)
		}
		o.Bounds, o.NoBounds = letters, none
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

// panelOptions sets o's scales and y limits from --linear, --log and
// --ylim, each for every panel or, with a prefix "P=", for panel P.
func (r Request) panelOptions(o *Options) error {
	panel := func(flag, v string) (int, string, error) {
		p, rest, ok := strings.Cut(strings.TrimSpace(v), "=")
		if !ok {
			return 0, p, nil
		}
		k, err := strconv.Atoi(strings.TrimSpace(p))
		if err != nil || k < 1 {
			return 0, "", fmt.Errorf("%s %s: a panel is a number from 1 (P=…), got %q", flag, v, p)
		}
		return k, strings.TrimSpace(rest), nil
	}
	at := func(k int) *PanelOptions {
		if o.Panels == nil {
			o.Panels = map[int]PanelOptions{}
		}
		po := o.Panels[k]
		return &po
	}
	for _, a := range []struct {
		flag, scale string
		axes        []string
	}{{"--linear", AxisLinear, r.Linear}, {"--log", AxisLog, r.Log}} {
		for _, v := range a.axes {
			k, axis, err := panel(a.flag, v)
			if err != nil {
				return err
			}
			x, y := &o.XScale, &o.YScale
			po := &PanelOptions{}
			if k > 0 {
				po = at(k)
				x, y = &po.XScale, &po.YScale
			}
			var to *string
			switch axis {
			case "x":
				to = x
			case "y":
				to = y
			default:
				return fmt.Errorf("%s: unknown axis %q (allowed: x, y, or P=x, P=y for panel P alone)", a.flag, axis)
			}
			if *to != "" && *to != a.scale {
				return fmt.Errorf("--linear and --log both name axis %s", strings.TrimSpace(v))
			}
			*to = a.scale
			if k > 0 {
				o.Panels[k] = *po
			}
		}
	}
	for _, v := range r.YLim {
		k, lim, err := panel("--ylim", v)
		if err != nil {
			return err
		}
		los, his, ok := strings.Cut(lim, ":")
		lo, err1 := strconv.ParseFloat(strings.TrimSpace(los), 64)
		hi, err2 := strconv.ParseFloat(strings.TrimSpace(his), 64)
		if !ok || err1 != nil || err2 != nil || !finite(lo) || !finite(hi) || !(hi > lo) {
			return fmt.Errorf("--ylim: %q: want LO:HI, two numbers with LO < HI (or P=LO:HI for panel P alone)", v)
		}
		if k == 0 {
			o.YMin, o.YMax = lo, hi
			continue
		}
		po := at(k)
		po.YMin, po.YMax = lo, hi
		o.Panels[k] = *po
	}
	return nil
}
