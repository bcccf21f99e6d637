// The provably fair deal's kernel (docs/FAIR.md): SHA-256 (FIPS 180-4), HMAC-SHA256 (RFC 2104) and the
// deal: a forward Fisher-Yates shuffle of a pack by the HMAC-SHA256 stream of a key and a message, with
// rejection sampling on big-endian 32-bit words. The Python package checks every argument first.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace chinese_poker::fair {

using Digest = std::array<std::uint8_t, 32>;

// The SHA-256 of `size` bytes.
Digest sha256(const std::uint8_t* data, std::size_t size);

// The HMAC-SHA256 of `size` bytes under a key of `key_size` bytes (a key past 64 bytes is hashed first).
Digest hmac_sha256(const std::uint8_t* key, std::size_t key_size, const std::uint8_t* data, std::size_t size);

// The first `count` cards of `pack` shuffled by the stream HMAC-SHA256(key, prefix || u64be(nonce) ||
// u32be(c)), c = 0, 1, ...: for i = 0 .. count - 1 (at most pack size - 2), m = n - i, words at or past
// 2**32 - 2**32 % m are skipped, and positions i and i + x % m swap. Writes `count` codes to `out`.
void deal(const std::uint8_t* key, std::size_t key_size, const std::vector<std::uint8_t>& prefix,
          std::uint64_t nonce, const std::vector<std::uint8_t>& pack, int count, std::uint8_t* out);

// The same deal on raw buffers (a pack of 2 to 256 codes, 1 <= count <= pack_size): allocates nothing.
void deal(const std::uint8_t* key, std::size_t key_size, const std::uint8_t* prefix, std::size_t prefix_size,
          std::uint64_t nonce, const std::uint8_t* pack, int pack_size, int count, std::uint8_t* out) noexcept;

// Whether the hashes use the processor's SHA extensions (x86 SHA-NI) rather than portable C++.
bool sha256_accelerated() noexcept;

// While one lives, the hashes of its thread use the portable compression: the tests compare the two.
class PortableScope {
 public:
  PortableScope() noexcept;
  ~PortableScope();
  PortableScope(const PortableScope&) = delete;
  PortableScope& operator=(const PortableScope&) = delete;

 private:
  bool before_;
};

}  // namespace chinese_poker::fair
