package explorer

import (
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"slices"
	"strings"
)

// Guard protects a server on loopback from the browser of its own user.
// A page from another site can make the browser send requests to
// 127.0.0.1 in two ways: directly (a cross-site request, which carries an
// Origin or Sec-Fetch-Site header naming another site) and by DNS
// rebinding (the attacker's name resolves to 127.0.0.1, so the request
// is same-origin to the browser, but its Host header is the attacker's
// name). Guard refuses the first for the paths that run something and
// the second everywhere.
type Guard struct {
	hosts []string // allowed host names and addresses, lower case, no port
	port  string   // the port requests must name, if known
	// Runs reports whether a path starts work (a simulation, a file
	// read); cross-site requests to it are refused.
	Runs func(path string) bool
}

// NewGuard allows the loopback names and addresses and the host of addr
// (host:port, the address the server listens on; its port, unless 0, is
// the only one a Host header may name). A host that listens on every
// interface (empty, 0.0.0.0, ::) also allows the machine's interface
// addresses and its host name, the names a user on the network types.
func NewGuard(addr string) *Guard {
	g := &Guard{hosts: []string{"localhost"}}
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		host = addr
	}
	if port != "0" {
		g.port = port
	}
	if ip := net.ParseIP(host); host == "" || ip != nil && ip.IsUnspecified() {
		if name, err := os.Hostname(); err == nil {
			g.hosts = append(g.hosts, strings.ToLower(name))
		}
		if addrs, err := net.InterfaceAddrs(); err == nil {
			for _, a := range addrs {
				if ipn, ok := a.(*net.IPNet); ok {
					g.hosts = append(g.hosts, ipn.IP.String())
				}
			}
		}
	} else if host != "" {
		g.hosts = append(g.hosts, strings.ToLower(strings.Trim(host, "[]")))
	}
	return g
}

// IsLoopback reports whether host (a name or an address, without port)
// stays on this machine: localhost or a loopback address. Other names
// may resolve anywhere, so they are not loopback.
func IsLoopback(host string) bool {
	host = strings.Trim(host, "[]")
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// allowedHost reports whether a Host header (host or host:port) names
// this server.
func (g *Guard) allowedHost(hostport string) bool {
	host, port, err := net.SplitHostPort(hostport)
	if err != nil {
		host, port = hostport, ""
	}
	if port != "" && g.port != "" && port != g.port {
		return false
	}
	host = strings.ToLower(strings.Trim(host, "[]"))
	return IsLoopback(host) || slices.Contains(g.hosts, host)
}

// crossSite returns why r comes from another origin than the page's
// own, or "" if it does not: an Origin other than http://HOST, or a
// Sec-Fetch-Site of cross-site or same-site (another origin of the same
// site). Requests without these headers (curl, scripts) are not from a
// page, and pass.
func crossSite(r *http.Request) string {
	if o := r.Header.Get("Origin"); o != "" {
		u, err := url.Parse(o)
		if err != nil || u.Scheme != "http" || !strings.EqualFold(u.Host, r.Host) {
			return "origin " + o
		}
	}
	switch site := r.Header.Get("Sec-Fetch-Site"); site {
	case "cross-site", "same-site":
		return "a " + site + " request"
	}
	return ""
}

// Wrap returns h behind the guard: a foreign Host gets 421 Misdirected
// Request, a cross-site request to a path that runs gets 403 Forbidden,
// each with a one-line message.
func (g *Guard) Wrap(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !g.allowedHost(r.Host) {
			http.Error(w, fmt.Sprintf("graphalloc serve: host %q is not this server's (it answers to localhost and loopback addresses, and the host of --addr)", r.Host), http.StatusMisdirectedRequest)
			return
		}
		if g.Runs != nil && g.Runs(r.URL.Path) {
			if why := crossSite(r); why != "" {
				http.Error(w, "graphalloc serve: "+why+" may not start a run; open the page from this server", http.StatusForbidden)
				return
			}
		}
		h.ServeHTTP(w, r)
	})
}
