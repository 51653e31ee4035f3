//go:build !(amd64 || arm64 || loong64 || mips64 || mips64le || ppc64 || ppc64le || riscv64 || s390x || wasm)

package need64

// Built only where int has 32 bits (the list above is every 64-bit GOARCH):
// the identifier is undefined on purpose, its name is the message.
var _ = graphalloc_needs_a_64_bit_platform
