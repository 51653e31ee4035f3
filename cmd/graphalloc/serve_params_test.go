package main

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/graphalloc/graphalloc/alloc"
	"github.com/graphalloc/graphalloc/internal/explorer"
)

// TestServeParams: /api/params lists every parameter of alloc.ParamTable as
// a key and a field, and the explorer runs the processes that read
// threshold, delta, memory and k with them, as run does.
func TestServeParams(t *testing.T) {
	ts := newTestServer(t, "", 0, 0, "")
	resp, err := http.Get(ts.URL + "/api/params")
	if err != nil {
		t.Fatal(err)
	}
	var p explorer.Params
	err = json.NewDecoder(resp.Body).Decode(&p)
	resp.Body.Close()
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range alloc.ParamTable {
		i := slices.IndexFunc(p.Fields, func(f explorer.Field) bool { return f.Name == s.Name })
		if !slices.Contains(p.Keys, s.Name) || i < 0 || p.Fields[i].Label != s.Symbol {
			t.Errorf("%s: not a key and a field of /api/params: %+v", s.Name, p)
		}
	}
	for _, c := range []struct{ q, flag string }{
		{"process=threshold&threshold=3&bins=256&balls=4n&trials=2", "--threshold=3"},
		{"process=quantile&delta=0.25&bins=256&balls=4n&trials=2", "--delta=0.25"},
		{"process=memory&memory=2&bins=256&balls=4n&trials=2", "--memory=2"},
		{"process=kd-choice&choices=4&k=2&bins=256&balls=4n&trials=2", "--k=2"},
	} {
		evs := getEvents(t, ts, c.q)
		if msg := failMessage(t, evs); msg != "" || evs[len(evs)-1].name != "done" {
			t.Errorf("%s: %q", c.q, msg)
			continue
		}
		var cfg struct {
			Command string `json:"command"`
		}
		if err := json.Unmarshal([]byte(evs[0].data), &cfg); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(cfg.Command, c.flag) {
			t.Errorf("%s: command %q lacks %s", c.q, cfg.Command, c.flag)
		}
		a, _ := json.Marshal(cliTrials(t, cfg.Command))
		b, _ := json.Marshal(streamedResults(t, evs))
		if !bytes.Equal(a, b) {
			t.Errorf("%s: served trials differ from %s", c.q, cfg.Command)
		}
	}
	resp, err = http.Get(ts.URL + "/app.js")
	if err != nil {
		t.Fatal(err)
	}
	js, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	for _, s := range alloc.ParamTable {
		if bytes.Contains(js, []byte(`"`+s.Name+`"`)) {
			t.Errorf("app.js spells the parameter %q: its keys come from /api/params", s.Name)
		}
	}
}
