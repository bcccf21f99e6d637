// SHA-256, HMAC-SHA256 and the provably fair deal (cpp/include/chinese_poker/fair.hpp, docs/FAIR.md).
// The hash follows FIPS 180-4 section 6.2; the tests compare it with Python's hashlib.
#include "chinese_poker/fair.hpp"

#include <cstring>

#if (defined(__x86_64__) || defined(__i386__)) && (defined(__GNUC__) || defined(__clang__))
#define CP_FAIR_SHA_NI 1
#include <cpuid.h>
#include <immintrin.h>
#endif

namespace chinese_poker::fair {

namespace {

constexpr std::uint32_t kRound[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2};

constexpr std::uint32_t kInitial[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                       0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};

inline std::uint32_t rotr(std::uint32_t x, int n) { return (x >> n) | (x << (32 - n)); }

inline std::uint32_t load_be32(const std::uint8_t* p) {
  return (std::uint32_t{p[0]} << 24) | (std::uint32_t{p[1]} << 16) | (std::uint32_t{p[2]} << 8) | p[3];
}

inline void store_be32(std::uint8_t* p, std::uint32_t x) {
  p[0] = static_cast<std::uint8_t>(x >> 24);
  p[1] = static_cast<std::uint8_t>(x >> 16);
  p[2] = static_cast<std::uint8_t>(x >> 8);
  p[3] = static_cast<std::uint8_t>(x);
}

// One 64-byte block into the state, in portable C++.
void compress_portable(std::uint32_t state[8], const std::uint8_t* block) {
  std::uint32_t w[64];
  for (int t = 0; t < 16; ++t) w[t] = load_be32(block + 4 * t);
  for (int t = 16; t < 64; ++t) {
    const std::uint32_t s0 = rotr(w[t - 15], 7) ^ rotr(w[t - 15], 18) ^ (w[t - 15] >> 3);
    const std::uint32_t s1 = rotr(w[t - 2], 17) ^ rotr(w[t - 2], 19) ^ (w[t - 2] >> 10);
    w[t] = w[t - 16] + s0 + w[t - 7] + s1;
  }
  std::uint32_t a = state[0], b = state[1], c = state[2], d = state[3];
  std::uint32_t e = state[4], f = state[5], g = state[6], h = state[7];
  for (int t = 0; t < 64; ++t) {
    const std::uint32_t t1 = h + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + kRound[t] + w[t];
    const std::uint32_t t2 = (rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
    h = g;
    g = f;
    f = e;
    e = d + t1;
    d = c;
    c = b;
    b = a;
    a = t1 + t2;
  }
  state[0] += a;
  state[1] += b;
  state[2] += c;
  state[3] += d;
  state[4] += e;
  state[5] += f;
  state[6] += g;
  state[7] += h;
}

#ifdef CP_FAIR_SHA_NI
// One 64-byte block into the state with the x86 SHA extensions. The instructions keep the state as two
// registers, (a, b, e, f) and (c, d, g, h) from the high lane down; each sha256rnds2 makes two rounds from
// the low two words of W + K, and sha256msg1/msg2 extend the message schedule four words at a time.
__attribute__((target("sha,sse4.1,ssse3"))) void compress_sha_ni(std::uint32_t state[8], const std::uint8_t* block) {
  const __m128i byte_swap = _mm_set_epi64x(0x0c0d0e0f08090a0bLL, 0x0405060700010203LL);
  __m128i dcba = _mm_loadu_si128(reinterpret_cast<const __m128i*>(state));
  __m128i hgfe = _mm_loadu_si128(reinterpret_cast<const __m128i*>(state + 4));
  dcba = _mm_shuffle_epi32(dcba, 0xB1);                // (c, d, a, b) from the high lane down
  hgfe = _mm_shuffle_epi32(hgfe, 0x1B);                // (e, f, g, h)
  __m128i abef = _mm_alignr_epi8(dcba, hgfe, 8);       // (a, b, e, f)
  __m128i cdgh = _mm_blend_epi16(hgfe, dcba, 0xF0);    // (c, d, g, h)
  const __m128i abef_before = abef, cdgh_before = cdgh;
  __m128i w[4];
#pragma GCC unroll 16
  for (int group = 0; group < 16; ++group) {
    __m128i& words = w[group & 3];
    if (group < 4) {
      words = _mm_shuffle_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(block + 16 * group)), byte_swap);
    } else {
      // W[t] = s1(W[t-2]) + W[t-7] + s0(W[t-15]) + W[t-16] for the four t of this group.
      const __m128i& previous = w[(group + 3) & 3];
      words = _mm_sha256msg1_epu32(words, w[(group + 1) & 3]);
      words = _mm_add_epi32(words, _mm_alignr_epi8(previous, w[(group + 2) & 3], 4));
      words = _mm_sha256msg2_epu32(words, previous);
    }
    __m128i keyed = _mm_add_epi32(words, _mm_loadu_si128(reinterpret_cast<const __m128i*>(kRound + 4 * group)));
    cdgh = _mm_sha256rnds2_epu32(cdgh, abef, keyed);  // two rounds: cdgh holds the new (a, b, e, f)
    keyed = _mm_shuffle_epi32(keyed, 0x0E);
    abef = _mm_sha256rnds2_epu32(abef, cdgh, keyed);  // (a, b, e, f) again, and cdgh the old one
  }
  abef = _mm_add_epi32(abef, abef_before);
  cdgh = _mm_add_epi32(cdgh, cdgh_before);
  const __m128i feba = _mm_shuffle_epi32(abef, 0x1B);  // (f, e, b, a)
  const __m128i dchg = _mm_shuffle_epi32(cdgh, 0xB1);  // (d, c, h, g)
  _mm_storeu_si128(reinterpret_cast<__m128i*>(state), _mm_blend_epi16(feba, dchg, 0xF0));
  _mm_storeu_si128(reinterpret_cast<__m128i*>(state + 4), _mm_alignr_epi8(dchg, feba, 8));
}

bool has_sha_ni() noexcept {
  unsigned a = 0, b = 0, c = 0, d = 0;
  if (__get_cpuid(1, &a, &b, &c, &d) == 0) return false;
  const bool ssse3 = (c >> 9 & 1u) != 0, sse41 = (c >> 19 & 1u) != 0;
  if (!ssse3 || !sse41) return false;
  if (__get_cpuid_count(7, 0, &a, &b, &c, &d) == 0) return false;
  return (b >> 29 & 1u) != 0;
}
#endif

using Compress = void (*)(std::uint32_t state[8], const std::uint8_t* block);

// The compression used by every hash: the SHA extensions where the processor has them (the same bytes,
// compared with the portable one by the core tests), else portable C++. Chosen once.
Compress pick_compress() noexcept {
#ifdef CP_FAIR_SHA_NI
  if (has_sha_ni()) return compress_sha_ni;
#endif
  return compress_portable;
}

const Compress compress_fast = pick_compress();

thread_local bool force_portable = false;

inline void compress(std::uint32_t state[8], const std::uint8_t* block) {
  (force_portable ? compress_portable : compress_fast)(state, block);
}

// A hash in progress: the state after `done` whole blocks; the rest of the message is given at the end.
struct Hasher {
  std::uint32_t state[8];
  std::uint64_t done = 0;  // bytes already compressed (a multiple of 64)

  Hasher() { std::memcpy(state, kInitial, sizeof state); }

  // Compress the whole blocks of `data` (the remainder must be passed to finish).
  void blocks(const std::uint8_t* data, std::size_t size) {
    for (std::size_t at = 0; at + 64 <= size; at += 64) compress(state, data + at);
    done += size / 64 * 64;
  }

  // The digest of everything so far plus the `size` (< 64 or any) bytes at `tail`.
  Digest finish(const std::uint8_t* tail, std::size_t size) const {
    Hasher copy = *this;
    const std::size_t whole = size / 64 * 64;
    copy.blocks(tail, whole);
    std::uint8_t last[128] = {};
    const std::size_t rest = size - whole;
    std::memcpy(last, tail + whole, rest);
    last[rest] = 0x80;
    const std::size_t padded = rest + 9 <= 64 ? 64 : 128;
    const std::uint64_t bits = (copy.done + rest) * 8;
    for (std::size_t k = 0; k < 8; ++k) last[padded - 1 - k] = static_cast<std::uint8_t>(bits >> (8 * k));
    for (std::size_t at = 0; at < padded; at += 64) compress(copy.state, last + at);
    Digest out;
    for (int k = 0; k < 8; ++k) store_be32(out.data() + 4 * k, copy.state[k]);
    return out;
  }
};

// HMAC's inner and outer hashes after their padded keys: every block of one deal starts from them.
struct Keyed {
  Hasher inner, outer;

  Keyed(const std::uint8_t* key, std::size_t key_size) {
    std::uint8_t pad[64] = {};
    if (key_size > 64) {
      const Digest hashed = sha256(key, key_size);
      std::memcpy(pad, hashed.data(), hashed.size());
    } else if (key_size > 0) {
      std::memcpy(pad, key, key_size);
    }
    std::uint8_t ipad[64], opad[64];
    for (int k = 0; k < 64; ++k) {
      ipad[k] = static_cast<std::uint8_t>(pad[k] ^ 0x36);
      opad[k] = static_cast<std::uint8_t>(pad[k] ^ 0x5c);
    }
    inner.blocks(ipad, 64);
    outer.blocks(opad, 64);
  }

  Digest mac(const std::uint8_t* data, std::size_t size) const {
    const Digest first = inner.finish(data, size);
    return outer.finish(first.data(), first.size());
  }
};

}  // namespace

Digest sha256(const std::uint8_t* data, std::size_t size) { return Hasher().finish(data, size); }

Digest hmac_sha256(const std::uint8_t* key, std::size_t key_size, const std::uint8_t* data, std::size_t size) {
  return Keyed(key, key_size).mac(data, size);
}

void deal(const std::uint8_t* key, std::size_t key_size, const std::uint8_t* prefix, std::size_t prefix_size,
          std::uint64_t nonce, const std::uint8_t* pack, int pack_size, int count, std::uint8_t* out) noexcept {
  const Keyed keyed(key, key_size);
  // The message is prefix || u64be(nonce) || u32be(counter): the whole blocks of the prefix are hashed
  // once, so each counter hashes only the rest (at most 63 bytes of the prefix, the nonce, the counter).
  Hasher inner = keyed.inner;
  const std::size_t whole = prefix_size / 64 * 64;
  inner.blocks(prefix, whole);
  std::uint8_t tail[64 + 12];
  const std::size_t rest = prefix_size - whole;
  std::memcpy(tail, prefix + whole, rest);
  for (std::size_t k = 0; k < 8; ++k) tail[rest + k] = static_cast<std::uint8_t>(nonce >> (56 - 8 * k));
  const std::size_t counter_at = rest + 8, tail_size = rest + 12;
  std::uint8_t order[256];
  const int n = pack_size;
  std::memcpy(order, pack, static_cast<std::size_t>(n));
  std::uint32_t counter = 0;
  Digest block{};
  int word = 8;  // words of `block` already read
  const int steps = count < n - 1 ? count : n - 1;
  for (int i = 0; i < steps; ++i) {
    const std::uint64_t m = static_cast<std::uint64_t>(n - i);
    const std::uint64_t limit = (std::uint64_t{1} << 32) - (std::uint64_t{1} << 32) % m;
    std::uint64_t x = 0;
    do {
      if (word == 8) {
        store_be32(tail + counter_at, counter++);
        const Digest first = inner.finish(tail, tail_size);
        block = keyed.outer.finish(first.data(), first.size());
        word = 0;
      }
      x = load_be32(block.data() + 4 * word++);
    } while (x >= limit);
    const int j = i + static_cast<int>(x % m);
    const std::uint8_t held = order[i];
    order[i] = order[j];
    order[j] = held;
  }
  std::memcpy(out, order, static_cast<std::size_t>(count));
}

void deal(const std::uint8_t* key, std::size_t key_size, const std::vector<std::uint8_t>& prefix,
          std::uint64_t nonce, const std::vector<std::uint8_t>& pack, int count, std::uint8_t* out) {
  deal(key, key_size, prefix.data(), prefix.size(), nonce, pack.data(), static_cast<int>(pack.size()), count, out);
}

bool sha256_accelerated() noexcept { return compress_fast != compress_portable; }

PortableScope::PortableScope() noexcept : before_(force_portable) { force_portable = true; }
PortableScope::~PortableScope() { force_portable = before_; }

}  // namespace chinese_poker::fair
