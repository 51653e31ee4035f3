package study

import (
	"strconv"
	"strings"
	"testing"
)

// FuzzParseCount: no input makes the number parser panic, hang or
// allocate without bound; what it accepts is a non-negative int64, and a
// plain decimal integer parses to its value.
func FuzzParseCount(f *testing.F) {
	for _, s := range []string{"1000000", "1e6", "2^20", "16n", "0.5n", "1_000", "-1", "1e999999", "2^99999", "n", "9223372036854775808"} {
		f.Add(s, int64(1000))
	}
	f.Fuzz(func(t *testing.T, in string, n int64) {
		if n < 0 {
			n = -n
		}
		v, err := ParseCount(in, n)
		if err != nil {
			return
		}
		if v < 0 {
			t.Fatalf("ParseCount(%q, %d) = %d < 0", in, n, v)
		}
		if plain := strings.ReplaceAll(in, "_", ""); plain != "" && strings.Trim(plain, "0123456789") == "" {
			if want, err := strconv.ParseInt(plain, 10, 64); err == nil && want != v {
				t.Fatalf("ParseCount(%q) = %d, want %d", in, v, want)
			}
		}
	})
}
