#include "chinese_poker/audit_lines.hpp"

#include <charconv>
#include <cstring>
#include <limits>
#include <utility>

#include "chinese_poker/card_text.hpp"
#include "chinese_poker/cards.hpp"
#include "chinese_poker/fair.hpp"
#include "chinese_poker/settle.hpp"
#include "json_scan.hpp"

// On x86-64 with GCC or Clang (SSE2 is part of the architecture), the holes of a shape are found 16 bytes
// at a time: a quote, or the end of a run of digits, by one comparison of a vector and a count of zeros.
#if defined(__SSE2__) && (defined(__GNUC__) || defined(__clang__))
#define CP_AUDIT_SSE2 1
#include <emmintrin.h>
#endif

// A function inlined where it is called, so that each of its branches in a shape's unrolled parts has
// its own history (each hole there sees one kind of value, line after line).
#if defined(__GNUC__) || defined(__clang__)
#define CP_AUDIT_INLINE inline __attribute__((always_inline))
#else
#define CP_AUDIT_INLINE inline
#endif

namespace chinese_poker {

namespace {

constexpr int kHand = 13;
constexpr int kRowSize[3] = {3, 5, 5};
constexpr int kRowStart[3] = {0, 3, 8};
constexpr std::size_t kMaxClientSeeds = 16;
constexpr std::string_view kDomain = "chinese-poker/deal/v1";

// A line is read token by token by the shared JSON scanner. The line was checked first to hold only
// printable ASCII and no backslash (plain_line), so its white space is spaces and a string is the bytes
// up to the next quote: white space, strings, keys and the values only passed over (most of an output
// round's bytes) are read here in tight loops over the bytes, and take exactly what the scanner takes on
// such a line (the grammar of json::Scanner::skip_value, its limits on digits and depth included).
struct Shape;

// Whether the `n` bytes at `a` and `b` are the same, compared in words (the runs of a shape are short:
// a call of memcmp for each cost more than the comparison).
bool same_bytes(const char* a, const char* b, std::size_t n) noexcept {
  std::uint64_t x = 0, y = 0;
  for (; n >= 8; a += 8, b += 8, n -= 8) {
    std::memcpy(&x, a, 8);
    std::memcpy(&y, b, 8);
    if (x != y) return false;
  }
  if (n >= 4) {  // the first and the last 4 bytes (overlapping)
    std::uint32_t u = 0, v = 0, w = 0, z = 0;
    std::memcpy(&u, a, 4);
    std::memcpy(&v, b, 4);
    std::memcpy(&w, a + n - 4, 4);
    std::memcpy(&z, b + n - 4, 4);
    return u == v && w == z;
  }
  for (; n > 0; ++a, ++b, --n) {
    if (*a != *b) return false;
  }
  return true;
}


// Whether the `N` bytes at `a` and `b` are the same, N known when compiling: a few words compared without a
// branch between them (the runs of a shape, whose lengths are constants).
template <std::size_t N>
CP_AUDIT_INLINE bool same_run(const char* a, const char* b) noexcept {
  if constexpr (N == 0) {
    return true;
  } else if constexpr (N < 4) {
    bool same = true;
    for (std::size_t k = 0; k < N; ++k) same &= a[k] == b[k];
    return same;
  } else if constexpr (N < 8) {
    std::uint32_t u = 0, v = 0, w = 0, z = 0;
    std::memcpy(&u, a, 4);
    std::memcpy(&v, b, 4);
    std::memcpy(&w, a + N - 4, 4);
    std::memcpy(&z, b + N - 4, 4);
    return ((u ^ v) | (w ^ z)) == 0;
  } else {
    std::uint64_t differ = 0;
    for (std::size_t k = 0; k + 8 <= N; k += 8) {
      std::uint64_t x = 0, y = 0;
      std::memcpy(&x, a + k, 8);
      std::memcpy(&y, b + k, 8);
      differ |= x ^ y;
    }
    if constexpr (N % 8 != 0) {  // the last 8 bytes, overlapping the words before
      std::uint64_t x = 0, y = 0;
      std::memcpy(&x, a + N - 8, 8);
      std::memcpy(&y, b + N - 8, 8);
      differ |= x ^ y;
    }
    return differ == 0;
  }
}

#ifdef CP_AUDIT_SSE2
// Bit k set: byte k of the 16 at `p` is a quote.
CP_AUDIT_INLINE unsigned quote_bytes(const char* p) noexcept {
  const __m128i bytes = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
  return static_cast<unsigned>(_mm_movemask_epi8(_mm_cmpeq_epi8(bytes, _mm_set1_epi8('"'))));
}
// Bit k set: byte k of the 16 at `p` is a decimal digit (its distance from '0', unsigned, at most 9).
CP_AUDIT_INLINE unsigned digit_bytes(const char* p) noexcept {
  const __m128i from_zero = _mm_sub_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p)), _mm_set1_epi8('0'));
  const __m128i small = _mm_min_epu8(from_zero, _mm_set1_epi8(9));
  return static_cast<unsigned>(_mm_movemask_epi8(_mm_cmpeq_epi8(small, from_zero)));
}
#endif

// json::is_word as a table: one load where the scanner's test is a chain of comparisons (it runs after
// every number and literal).
struct WordBytes {
  bool word[256] = {};
  constexpr WordBytes() {
    for (int c = 0; c < 256; ++c) word[c] = json::is_word(static_cast<char>(c));
  }
};
constexpr WordBytes kWordBytes{};

CP_AUDIT_INLINE bool word_byte(char c) noexcept { return kWordBytes.word[static_cast<unsigned char>(c)]; }

class Reader : public json::Scanner {
 public:
  using json::Scanner::Scanner;

  bool peek(char c) noexcept {
    const char* p = spaces(here());
    move_to(p);
    return p < stop() && *p == c;
  }
  bool take(char c) noexcept {
    if (!peek(c)) return false;
    move_to(here() + 1);
    return true;
  }
  bool string(std::string_view* out) noexcept {
    const char* p = spaces(here());
    if (p == stop() || *p != '"') return false;
    const char* close = closing_quote(p + 1);
    if (close == nullptr) return false;
    *out = std::string_view(p + 1, static_cast<std::size_t>(close - p - 1));
    move_to(close + 1);
    return true;
  }
  bool key(std::string_view* out) noexcept { return string(out) && take(':'); }

  // Any JSON value, checked and passed over.
  bool skip_value() noexcept {
    const char* p = value(here(), 0);
    if (p == nullptr) return false;
    move_to(p);
    return true;
  }

  // A value spelled as `shape` (see Shape): its bytes those of the shape's runs, each hole a value
  // passed over as skip_value passes over a value at that depth, or an integer (json::Scanner::int64,
  // into *integer). A value that matches a shape is one skip_value takes, at the depths it gives its
  // parts: `depth` is that of the shape's value. Taken: true, the position after it; else false, the
  // position unchanged (the caller then reads the value as skip_value would).
  template <const Shape& kShape>
  bool shaped(int depth, std::int64_t* integer) noexcept;

  // The bytes of `run` exactly where the reader stands (no white space first): taken, true.
  bool run(std::string_view bytes) noexcept {
    if (static_cast<std::size_t>(stop() - here()) < bytes.size() || !same_bytes(here(), bytes.data(), bytes.size())) {
      return false;
    }
    move_to(here() + bytes.size());
    return true;
  }
  // The `N` bytes at `bytes` exactly where the reader stands: taken, true.
  template <std::size_t N>
  CP_AUDIT_INLINE bool run_of(const char* bytes) noexcept {
    if (static_cast<std::size_t>(stop() - here()) < N || !same_run<N>(here(), bytes)) return false;
    move_to(here() + N);
    return true;
  }
  // The same for a run known when compiling (a string literal): its bytes compared in a few words.
  template <std::size_t N>
  CP_AUDIT_INLINE bool run(const char (&bytes)[N]) noexcept {
    constexpr std::size_t size = N - 1;
    if (static_cast<std::size_t>(stop() - here()) < size || !same_run<size>(here(), bytes)) return false;
    move_to(here() + size);
    return true;
  }

  // json::Scanner::int64, its common case inline: an integer of at most 18 digits (which no int64
  // bound limits) read here, any other token left to the scanner's reading.
  bool int64(std::int64_t* value) noexcept {
    const char* p = spaces(here());
    const char* first = p < stop() && *p == '-' ? p + 1 : p;
    const char* q = first;
    std::int64_t magnitude = 0;
    for (; q < stop() && q - first < 18 && json::is_digit(*q); ++q) magnitude = magnitude * 10 + (*q - '0');
    const auto count = q - first;
    // A 19th digit is a word byte after the 18 read: the scanner reads that token.
    if (count == 0 || (count > 1 && *first == '0') || (q < stop() && word_byte(*q))) {
      return json::Scanner::int64(value);
    }
    *value = first == p ? magnitude : -magnitude;
    move_to(q);
    return true;
  }

  // `[c, c, ..., c]` of `n` card codes spelled exactly so (no other white space), each a JSON integer
  // below kDeckSize (what small_code takes): into `out`, taken, true.
  bool code_row(int n, std::uint8_t* out) noexcept {
    const char* p = here();
    if (stop() - p < 2 * n + 1 || *p != '[') return false;
    ++p;
    for (int k = 0; k < n; ++k) {
      if (k > 0) {
        if (stop() - p < 3 || p[0] != ',' || p[1] != ' ') return false;
        p += 2;
      }
      if (stop() - p < 2) return false;  // a code and the comma or bracket after it
      const unsigned first = static_cast<unsigned char>(p[0]) - unsigned{'0'};
      const unsigned second = static_cast<unsigned char>(p[1]) - unsigned{'0'};
      if (first > 9 || (second <= 9 && first == 0)) return false;
      const unsigned code = second <= 9 ? first * 10 + second : first;
      p += second <= 9 ? 2 : 1;
      if (code >= unsigned{kDeckSize}) return false;
      out[k] = static_cast<std::uint8_t>(code);
    }
    if (p == stop() || *p != ']') return false;
    move_to(p + 1);
    return true;
  }

  // A value passed over as skip_value does; in a list, each item tried as `shape` first.
  template <const Shape& kShape>
  bool skip_list_of() noexcept {
    constexpr int depth = 0;
    if (!peek('[')) return skip_value();
    take('[');
    if (take(']')) return true;
    do {
      if (!shaped<kShape>(depth + 1, nullptr)) {
        const char* p = value(here(), depth + 1);
        if (p == nullptr) return false;
        move_to(p);
      }
    } while (take(','));
    return take(']');
  }

 private:
  // Part `kPart` of `kShape` at `p` (its run, unless run_taken says the part before took it, then its
  // hole): taken, true, `p` moved past it (Reader::shaped).
  template <const Shape& kShape, int kPart>
  bool shape_part(const char*& p, bool& run_taken, int depth, std::int64_t* integer) const noexcept;
  // Every part of `kShape` from `p`: the end of the last, or nullptr.
  template <const Shape& kShape, int... kParts>
  const char* shape_parts(const char* p, int depth, std::int64_t* integer,
                          std::integer_sequence<int, kParts...>) const noexcept;

  const char* here() const noexcept { return text().data() + pos(); }
  const char* stop() const noexcept { return text().data() + end(); }
  void move_to(const char* p) noexcept {
    static_cast<json::Scanner&>(*this) = json::Scanner(text(), static_cast<std::size_t>(p - text().data()), end());
  }

  const char* spaces(const char* p) const noexcept {
    while (p < stop() && *p == ' ') ++p;
    return p;
  }
  CP_AUDIT_INLINE const char* digits(const char* p) const noexcept {
    while (p < stop() && json::is_digit(*p)) ++p;
    return p;
  }
  // The closing quote of a string whose bytes start at `p`, or nullptr.
  CP_AUDIT_INLINE const char* closing_quote(const char* p) const noexcept {
#ifdef CP_AUDIT_SSE2
    // The first 64 bytes in one step (most strings of a line are shorter): the number of steps, which
    // varies from string to string, would be a branch mispredicted about once a string.
    if (stop() - p >= 64) {
      const std::uint64_t quotes = quote_bytes(p) | std::uint64_t{quote_bytes(p + 16)} << 16 |
                                   std::uint64_t{quote_bytes(p + 32)} << 32 | std::uint64_t{quote_bytes(p + 48)} << 48;
      if (quotes != 0) return p + __builtin_ctzll(quotes);
      p += 64;
    }
    for (; stop() - p >= 16; p += 16) {
      const unsigned quotes = quote_bytes(p);
      if (quotes != 0) return p + __builtin_ctz(quotes);
    }
#else
    // Passed over eight bytes at a time while none is a quote (a word holds a zero byte exactly when
    // the test below is nonzero, whatever the byte order), then byte by byte to the quote.
    constexpr std::uint64_t kOnes = 0x0101010101010101u, kHighs = 0x8080808080808080u;
    constexpr std::uint64_t kQuotes = kOnes * static_cast<unsigned char>('"');
    for (; stop() - p >= 8; p += 8) {
      std::uint64_t word = 0;
      std::memcpy(&word, p, 8);
      word ^= kQuotes;
      if (((word - kOnes) & ~word & kHighs) != 0) break;
    }
#endif
    while (p < stop() && *p != '"') ++p;
    return p < stop() ? p : nullptr;
  }
  // The end of the run of digits at `p`.
  CP_AUDIT_INLINE const char* digits_fast(const char* p) const noexcept {
#ifdef CP_AUDIT_SSE2
    if (stop() - p >= 16) {
      const unsigned others = ~digit_bytes(p) & 0xFFFFu;
      if (others != 0) return p + __builtin_ctz(others);
    }
#endif
    return digits(p);
  }
  CP_AUDIT_INLINE const char* literal(const char* p, std::string_view word) const noexcept {
    if (static_cast<std::size_t>(stop() - p) < word.size() || !same_bytes(p, word.data(), word.size())) {
      return nullptr;
    }
    p += word.size();
    return p < stop() && word_byte(*p) ? nullptr : p;
  }
  // true, false or null, told apart by the first byte (which the caller has seen is t, f or n).
  CP_AUDIT_INLINE const char* keyword_end(const char* p) const noexcept {
    return literal(p, *p == 't' ? std::string_view("true") : *p == 'f' ? std::string_view("false") : "null");
  }
  // json::Scanner::number(false, ...).
  const char* number_end(const char* p) const noexcept {
    if (p < stop() && *p == '-') ++p;
    const char* first = p;
    p = digits(p);
    const auto count = static_cast<std::size_t>(p - first);
    if (count == 0 || count > json::kMaxDigits || (count > 1 && *first == '0')) return nullptr;
    if (p < stop() && *p == '.') {
      const char* at = ++p;
      p = digits(p);
      if (p == at || static_cast<std::size_t>(p - at) > json::kMaxDigits) return nullptr;
    }
    if (p < stop() && (*p == 'e' || *p == 'E')) {
      ++p;
      if (p < stop() && (*p == '+' || *p == '-')) ++p;
      const char* at = p;
      p = digits(p);
      if (p == at || p - at > 4) return nullptr;
    }
    return p < stop() && word_byte(*p) ? nullptr : p;
  }
  // The end of the string, integer or literal that starts right at `p`, as value() finds it; nullptr for
  // every other value (and white space first), which value() then reads. Inline, for the holes of a shape.
  CP_AUDIT_INLINE const char* scalar(const char* p) const noexcept {
    if (p == stop()) return nullptr;
    switch (*p) {
      case '"': {
        const char* close = closing_quote(p + 1);
        return close == nullptr ? nullptr : close + 1;
      }
      case 't':
      case 'f':
      case 'n':
        return keyword_end(p);
      default: {
        const char* first = p < stop() && *p == '-' ? p + 1 : p;
        const char* q = digits_fast(first);
        const auto count = q - first;
        if (count == 0 || count > 18 || (count > 1 && *first == '0') || (q < stop() && word_byte(*q))) {
          return nullptr;
        }
        return q;
      }
    }
  }
  // The end of the value at `p` (white space first), or nullptr: json::Scanner::skip_value(depth).
  const char* value(const char* p, int depth) const noexcept {
    if (depth > json::kMaxDepth) return nullptr;
    p = spaces(p);
    if (p == stop()) return nullptr;
    switch (*p) {
      case '"': {
        const char* close = closing_quote(p + 1);
        return close == nullptr ? nullptr : close + 1;
      }
      case '{': {
        p = spaces(p + 1);
        if (p < stop() && *p == '}') return p + 1;
        while (true) {
          if (p == stop() || *p != '"') return nullptr;
          p = closing_quote(p + 1);
          if (p == nullptr) return nullptr;
          p = spaces(p + 1);
          if (p == stop() || *p != ':') return nullptr;
          p = value(p + 1, depth + 1);
          if (p == nullptr) return nullptr;
          p = spaces(p);
          if (p == stop()) return nullptr;
          if (*p == '}') return p + 1;
          if (*p != ',') return nullptr;
          p = spaces(p + 1);
        }
      }
      case '[': {
        p = spaces(p + 1);
        if (p < stop() && *p == ']') return p + 1;
        while (true) {
          p = value(p, depth + 1);
          if (p == nullptr) return nullptr;
          p = spaces(p);
          if (p == stop()) return nullptr;
          if (*p == ']') return p + 1;
          if (*p != ',') return nullptr;
          ++p;
        }
      }
      case 't':
      case 'f':
      case 'n':
        return keyword_end(p);
      default:
        return number_end(p);
    }
  }
};


// Printable ASCII and no backslash: the lines this reader takes at all (the trailing CRs of a CRLF file
// are taken off first, as the general reader takes them off).
bool plain_line(std::string_view line) noexcept {
  const char* p = line.data();
  const char* const stop = p + line.size();
#ifdef CP_AUDIT_SSE2
  // Per byte, its distance above 0x20 (wrapping below it) kept as the greatest seen, and whether it is a
  // backslash: a line is plain when the greatest is at most 0x5E and no backslash was seen. Two vectors
  // a step, so that each step's work does not wait on the one before.
  const __m128i space = _mm_set1_epi8(0x20), backslash = _mm_set1_epi8('\\');
  __m128i most = _mm_setzero_si128(), slashes = _mm_setzero_si128();
  for (; stop - p >= 32; p += 32) {
    const __m128i a = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
    const __m128i b = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 16));
    most = _mm_max_epu8(most, _mm_max_epu8(_mm_sub_epi8(a, space), _mm_sub_epi8(b, space)));
    slashes = _mm_or_si128(slashes, _mm_or_si128(_mm_cmpeq_epi8(a, backslash), _mm_cmpeq_epi8(b, backslash)));
  }
  const __m128i over = _mm_cmpeq_epi8(_mm_max_epu8(most, _mm_set1_epi8(0x5E)), _mm_set1_epi8(0x5E));
  if (_mm_movemask_epi8(over) != 0xFFFF || _mm_movemask_epi8(slashes) != 0) return false;
#endif
  // One byte of flags (c - 0x20 wraps below 0x20), so that the loop runs on whole vectors of bytes.
  std::uint8_t bad = 0;
  for (; p < stop; ++p) {
    const auto c = static_cast<std::uint8_t>(*p);
    const auto printable = static_cast<std::uint8_t>(c - 0x20);
    bad = static_cast<std::uint8_t>(bad | (printable > 0x5E) | (c == '\\'));
  }
  return bad == 0;
}

bool blank(std::string_view line) noexcept {
  for (const char c : line) {
    if (c != ' ' && c != '\t' && c != '\r' && c != '\v' && c != '\f') return false;
  }
  return true;
}

constexpr char kHex[] = "0123456789abcdef";

void hex_of(const fair::Digest& digest, char* out) noexcept {
  for (std::size_t k = 0; k < digest.size(); ++k) {
    out[2 * k] = kHex[digest[k] >> 4];
    out[2 * k + 1] = kHex[digest[k] & 15];
  }
}

bool same_digest(std::string_view given, const fair::Digest& digest) noexcept {
  char hex[64];
  hex_of(digest, hex);
  return given == std::string_view(hex, 64);
}

// ----- output rounds: the receipt -------------------------------------------------------------------

constexpr std::string_view kDecidedBy[] = {"natural",           "surrender", "foul", "rows",
                                           "false_declaration", "not_played"};
constexpr int kRowsDecide = 3;  // kDecidedBy[3]: "rows"

// A receipt's pair as score --receipts writes the k-th of the settlement's order (0, 1), (0, 2), ...,
// (1, 2), ... decided by rows at stake 1, up to its units: `{"i": I, "j": J, "decided_by": "rows",
// "stake": 1, "units": ` (every seat one digit).
struct PairHeads {
  static constexpr std::string_view kHead = R"({"i": 0, "j": 0, "decided_by": "rows", "stake": 1, "units": )";
  char bytes[kMaxPairs][kHead.size()] = {};
  std::int64_t i[kMaxPairs] = {}, j[kMaxPairs] = {};
  constexpr PairHeads() {
    int k = 0;
    for (int a = 0; a < kMaxPlayers; ++a) {
      for (int b = a + 1; b < kMaxPlayers; ++b, ++k) {
        for (std::size_t n = 0; n < kHead.size(); ++n) bytes[k][n] = kHead[n];
        bytes[k][6] = static_cast<char>('0' + a);
        bytes[k][14] = static_cast<char>('0' + b);
        i[k] = a;
        j[k] = b;
      }
    }
  }
};
constexpr PairHeads kPairHeads{};
static_assert(kMaxPlayers <= 10 && PairHeads::kHead[6] == '0' && PairHeads::kHead[14] == '0');

struct Receipt {
  int players = 0;
  int seats = 0;  // hands given
  std::uint8_t cards[kMaxPlayers * kHand] = {};
  std::int64_t net[kMaxPlayers] = {};
  int net_count = 0;
  struct Pair {
    std::int64_t i = 0, j = 0, stake = 0, units = 0;
    std::string_view decided_by;
  } pairs[kMaxPairs];
  int pair_count = 0;
  std::string_view format, engine_name, engine_version, digest, sha256, hmac;
  bool has_hmac = false;
};

// A list of `count` false values (declared, surrendered: the fast path takes only rounds without them).
bool all_false(Reader& line, int* count) noexcept {
  if (!line.take('[')) return false;
  *count = 0;
  if (line.take(']')) return true;
  do {
    bool flag = true;
    if (!line.boolean(&flag) || flag) return false;
    ++*count;
  } while (line.take(','));
  return line.take(']');
}

bool read_hands(Reader& line, Receipt* out) noexcept {
  if (!line.take('[')) return false;
  out->seats = 0;
  do {
    if (out->seats == kMaxPlayers || !line.take('[')) return false;
    for (int k = 0; k < kHand; ++k) {
      std::int64_t code = -1;
      if ((k > 0 && !line.take(',')) || !line.int64(&code) || code < 0 || code >= kDeckSize) return false;
      out->cards[out->seats * kHand + k] = static_cast<std::uint8_t>(code);
    }
    if (!line.take(']')) return false;
    ++out->seats;
  } while (line.take(','));
  return line.take(']');
}

bool read_engine(Reader& line, Receipt* out) noexcept {
  if (!line.take('{')) return false;
  bool name = false, version = false;
  do {
    std::string_view key;
    if (!line.key(&key)) return false;
    if (key == "name" && !name) {
      name = line.string(&out->engine_name);
      if (!name) return false;
    } else if (key == "version" && !version) {
      version = line.string(&out->engine_version);
      if (!version) return false;
    } else {
      return false;
    }
  } while (line.take(','));
  return line.take('}') && name && version;
}

bool read_receipt_pairs(Reader& line, Receipt* out) noexcept {
  if (!line.take('[')) return false;
  out->pair_count = 0;
  if (line.take(']')) return true;
  do {
    if (out->pair_count == kMaxPairs || !line.take('{')) return false;
    Receipt::Pair& pair = out->pairs[out->pair_count++];
    unsigned seen = 0;
    do {
      std::string_view key;
      if (!line.key(&key)) return false;
      unsigned bit = 0;
      bool ok = false;
      if (key == "i") {
        bit = 1;
        ok = line.int64(&pair.i);
      } else if (key == "j") {
        bit = 2;
        ok = line.int64(&pair.j);
      } else if (key == "stake") {
        bit = 4;
        ok = line.int64(&pair.stake);
      } else if (key == "units") {
        bit = 8;
        ok = line.int64(&pair.units);
      } else if (key == "decided_by") {
        bit = 16;
        ok = line.string(&pair.decided_by);
      }
      if (!ok || (seen & bit) != 0) return false;
      seen |= bit;
    } while (line.take(','));
    if (!line.take('}') || seen != 31) return false;
  } while (line.take(','));
  return line.take(']');
}

bool read_receipt(Reader& line, Receipt* out) noexcept {
  *out = Receipt{};
  if (!line.take('{')) return false;
  unsigned seen = 0;
  int declared = 0, surrendered = 0;
  do {
    std::string_view key;
    if (!line.key(&key)) return false;
    unsigned bit = 0;
    bool ok = false;
    std::int64_t players = 0;
    if (key == "format") {
      bit = 1u << 0;
      ok = line.string(&out->format);
    } else if (key == "engine") {
      bit = 1u << 1;
      ok = read_engine(line, out);
    } else if (key == "rules_digest") {
      bit = 1u << 2;
      ok = line.string(&out->digest);
    } else if (key == "players") {
      bit = 1u << 3;
      ok = line.int64(&players) && players >= kMinPlayers && players <= kMaxPlayers;
      out->players = static_cast<int>(players);
    } else if (key == "hands") {
      bit = 1u << 4;
      ok = read_hands(line, out);
    } else if (key == "declared") {
      bit = 1u << 5;
      ok = all_false(line, &declared);
    } else if (key == "surrendered") {
      bit = 1u << 6;
      ok = all_false(line, &surrendered);
    } else if (key == "banker") {
      bit = 1u << 7;
      ok = line.word("null");
    } else if (key == "bets") {
      bit = 1u << 8;
      ok = line.word("null");
    } else if (key == "net") {
      bit = 1u << 9;
      ok = json::int64_list(line, out->net, kMaxPlayers, &out->net_count);
    } else if (key == "pairs") {
      bit = 1u << 10;
      ok = read_receipt_pairs(line, out);
    } else if (key == "sha256") {
      bit = 1u << 11;
      ok = line.string(&out->sha256);
    } else if (key == "hmac_sha256") {
      bit = 1u << 12;
      ok = line.string(&out->hmac);
      out->has_hmac = true;
    }
    if (!ok || (seen & bit) != 0) return false;
    seen |= bit;
  } while (line.take(','));
  constexpr unsigned kNeeded = (1u << 12) - 1;
  return line.take('}') && (seen & kNeeded) == kNeeded && out->seats == out->players &&
         declared == out->players && surrendered == out->players;
}

// A receipt spelled as `score --receipts` writes it (Python's json.dumps of make_receipt: ", " and ": "
// between tokens, the body's keys in receipt_body's order, then "sha256" and an optional "hmac_sha256"):
// each key and separator compared as a run of bytes, each value read by the reader read_receipt uses, so
// that a receipt taken here is one read_receipt takes, with the same fields. `head`: the bytes from the
// opening brace (after white space) to the rules digest, the config's format and engine in them. A receipt
// of any other spelling is left to read_receipt (`line` is then where it was).
bool spelled_receipt(Reader& line, std::string_view head, const AuditConfig& config, Receipt* out) noexcept {
  Reader at = line;
  Receipt& r = *out;  // written as it is read (read_receipt starts afresh when this gives up)
  std::int64_t players = 0;
  if (!at.peek('{') || !at.run(head) || !at.string(&r.digest) || !at.run(", \"players\": ") || !at.int64(&players) ||
      players < kMinPlayers || players > kMaxPlayers || !at.run(", \"hands\": [")) {
    return false;
  }
  r.players = static_cast<int>(players);
  for (int p = 0; p < r.players; ++p) {
    if ((p > 0 && !at.run(", ")) || !at.code_row(kHand, r.cards + p * kHand)) return false;
  }
  r.seats = r.players;
  // Every seat's flag false, in the declared and surrendered lists.
  const auto all_false_run = [&at, &r]() noexcept {
    for (int p = 0; p < r.players; ++p) {
      if (!(p > 0 ? at.run(", false") : at.run("false"))) return false;
    }
    return true;
  };
  if (!at.run("], \"declared\": [") || !all_false_run() || !at.run("], \"surrendered\": [") || !all_false_run()) {
    return false;
  }
  if (!at.run("], \"banker\": null, \"bets\": null, \"net\": ") ||
      !json::int64_list(at, r.net, kMaxPlayers, &r.net_count) || !at.run(", \"pairs\": [")) {
    return false;
  }
  r.pair_count = 0;
  do {
    if (r.pair_count == kMaxPairs) return false;
    const int k = r.pair_count++;
    Receipt::Pair& pair = r.pairs[k];
    // Most pairs are the k-th of the settlement's order, decided by rows at stake 1: all but the units
    // compared as one run.
    if (at.run_of<sizeof kPairHeads.bytes[0]>(kPairHeads.bytes[k])) {
      pair.i = kPairHeads.i[k];
      pair.j = kPairHeads.j[k];
      pair.decided_by = kDecidedBy[kRowsDecide];
      pair.stake = 1;
      if (!at.int64(&pair.units) || !at.run("}")) return false;
      continue;
    }
    if (!at.run("{\"i\": ") || !at.int64(&pair.i) || !at.run(", \"j\": ") || !at.int64(&pair.j) ||
        !at.run(", \"decided_by\": ") || !at.string(&pair.decided_by) || !at.run(", \"stake\": ") ||
        !at.int64(&pair.stake) || !at.run(", \"units\": ") || !at.int64(&pair.units) || !at.run("}")) {
      return false;
    }
  } while (at.run(", "));
  if (!at.run("], \"sha256\": ") || !at.string(&r.sha256)) return false;
  if (at.run(", \"hmac_sha256\": ")) {
    if (!at.string(&r.hmac)) return false;
    r.has_hmac = true;
  }
  if (!at.run("}")) return false;
  r.format = config.receipt_format;
  r.engine_name = config.engine_name;
  r.engine_version = config.engine_version;
  line = at;
  return true;
}

// The canonical encoding of the receipt body the settlement gives (chinese_poker.receipts): compact
// JSON with sorted keys. Every string in it needs no escape (the config's are checked when it is made).
// The digits of 0..99, each in two bytes: "00" (the second byte not part of it), ..., "90", "10", ..., "99".
struct SmallNumbers {
  char digits[100][2] = {};
  constexpr SmallNumbers() {
    for (int n = 0; n < 100; ++n) {
      digits[n][0] = static_cast<char>('0' + (n < 10 ? n : n / 10));
      digits[n][1] = static_cast<char>(n < 10 ? '0' : '0' + n % 10);
    }
  }
};
constexpr SmallNumbers kSmallNumbers{};

class Canonical {
 public:
  explicit Canonical(char* buffer) noexcept : start_(buffer), at_(buffer) {}
  void text(std::string_view s) noexcept {
    std::memcpy(at_, s.data(), s.size());
    at_ += s.size();
  }
  void quoted(std::string_view s) noexcept {
    *at_++ = '"';
    text(s);
    *at_++ = '"';
  }
  // Most numbers of a body are card codes and small amounts: those of one or two digits are written
  // from a table, two bytes at once (the second overwritten by what follows a one-digit number).
  void number(std::int64_t value) noexcept {
    const std::int64_t magnitude = value < 0 ? -value : value;
    if (value > std::numeric_limits<std::int64_t>::min() && magnitude < 100) {
      *at_ = '-';
      at_ += value < 0 ? 1 : 0;
      std::memcpy(at_, kSmallNumbers.digits[magnitude], 2);
      at_ += magnitude < 10 ? 1 : 2;
      return;
    }
    at_ = std::to_chars(at_, at_ + 24, value).ptr;
  }
  std::size_t size() const noexcept { return static_cast<std::size_t>(at_ - start_); }

 private:
  char* start_;
  char* at_;
};

// Room for the longest body: 6 hands of 13 two-digit codes, 15 pairs of five fields, the rest.
constexpr std::size_t kBodyRoom = 8192;

struct Settled {
  int players = 0, pairs = 0;
  std::int64_t net[kMaxPlayers] = {};
  std::uint8_t decided_by[kMaxPairs] = {};
  std::int64_t stake[kMaxPairs] = {}, units[kMaxPairs] = {};
};

bool settle_one(const std::uint8_t* cards, int players, const RulesSpec& rules, Settled* out) noexcept {
  out->players = players;
  out->pairs = players * (players - 1) / 2;
  BatchOutputs outputs;
  outputs.net = out->net;
  outputs.decided_by = out->decided_by;
  outputs.stake = out->stake;
  outputs.units = out->units;
  return !settle_batch(cards, 1, players, rules, BatchInputs{}, outputs, Parallel{});
}

std::size_t receipt_body(const Settled& s, const std::uint8_t* hands, const AuditConfig& config,
                         const AuditRules& rules, char* buffer) noexcept {
  Canonical out(buffer);
  out.text("{\"banker\":null,\"bets\":null,\"declared\":[");
  for (int p = 0; p < s.players; ++p) out.text(p > 0 ? ",false" : "false");
  out.text("],\"engine\":{\"name\":");
  out.quoted(config.engine_name);
  out.text(",\"version\":");
  out.quoted(config.engine_version);
  out.text("},\"format\":");
  out.quoted(config.receipt_format);
  out.text(",\"hands\":[");
  for (int p = 0; p < s.players; ++p) {
    out.text(p > 0 ? ",[" : "[");
    for (int k = 0; k < kHand; ++k) {
      if (k > 0) out.text(",");
      out.number(hands[p * kHand + k]);
    }
    out.text("]");
  }
  out.text("],\"net\":[");
  for (int p = 0; p < s.players; ++p) {
    if (p > 0) out.text(",");
    out.number(s.net[p]);
  }
  out.text("],\"pairs\":[");
  int pair = 0;
  for (int i = 0; i < s.players; ++i) {
    for (int j = i + 1; j < s.players; ++j, ++pair) {
      out.text(pair > 0 ? ",{\"decided_by\":\"" : "{\"decided_by\":\"");
      out.text(kDecidedBy[s.decided_by[pair]]);
      out.text("\",\"i\":");
      out.number(i);
      out.text(",\"j\":");
      out.number(j);
      out.text(",\"stake\":");
      out.number(s.stake[pair]);
      out.text(",\"units\":");
      out.number(s.units[pair]);
      out.text("}");
    }
  }
  out.text("],\"players\":");
  out.number(s.players);
  out.text(",\"rules_digest\":");
  out.quoted(rules.digest);
  out.text(",\"surrendered\":[");
  for (int p = 0; p < s.players; ++p) out.text(p > 0 ? ",false" : "false");
  out.text("]}");
  return out.size();
}

// Each row ascending, as the receipt's canonical hands are.
bool rows_ascending(const std::uint8_t* hand) noexcept {
  for (int row = 0; row < 3; ++row) {
    for (int k = kRowStart[row] + 1; k < kRowStart[row] + kRowSize[row]; ++k) {
      if (hand[k - 1] >= hand[k]) return false;
    }
  }
  return true;
}

// A JSON text with holes: runs of bytes to match as they stand, each followed by a hole, a value
// ('*' in the text) or an integer ('='), and the depth of the hole below the text's value. A value most
// lines hold may be written in the hole, between '<' and '>': it is then compared as bytes together with
// the run after it (one comparison, and the position after it known without reading the value), and the
// hole read as '*' only when they differ. The text puts ", " and ": " between tokens, no '*', '=', '<',
// '>' or bracket inside its strings and only scalars between '<' and '>', so that what matches it is a
// value json::Scanner::skip_value takes.
struct Shape {
  struct Part {
    std::size_t begin = 0, length = 0;  // the run: bytes[begin, begin + length)
    char hole = '\0';                   // '*', '=', or '\0' after the last run
    std::size_t common = 0;             // the length of the hole's common value, right after the run
    int depth = 0;
  };
  static constexpr int kMostParts = 48;        // a shape of more parts does not compile (constexpr)
  static constexpr std::size_t kMostBytes = 640;
  char bytes[kMostBytes] = {};  // the runs, each followed by its hole's common value (if any)
  Part parts[kMostParts] = {};
  int count = 0;

  explicit constexpr Shape(std::string_view shape) {
    std::size_t begin = 0, size = 0;
    int depth = 0;
    for (std::size_t k = 0; k <= shape.size(); ++k) {
      const char c = k < shape.size() ? shape[k] : '\0';
      if (c == '{' || c == '[') ++depth;
      if (c == '}' || c == ']') --depth;
      if (c == '<') {
        parts[count] = Part{begin, size - begin, '*', 0, depth};
        while (shape[++k] != '>') bytes[size++] = shape[k];
        parts[count].common = size - begin - parts[count].length;
        ++count;
        begin = size;
      } else if (c == '*' || c == '=' || c == '\0') {
        parts[count] = Part{begin, size - begin, c, 0, depth};
        ++count;
        begin = size;
      } else {
        bytes[size++] = c;
      }
    }
  }
};

template <const Shape& kShape, int kPart>
CP_AUDIT_INLINE bool Reader::shape_part(const char*& p, bool& run_taken, int depth,
                                         std::int64_t* integer) const noexcept {
  constexpr Shape::Part part = kShape.parts[kPart];
  if (!run_taken) {
    if (static_cast<std::size_t>(stop() - p) < part.length || !same_run<part.length>(p, kShape.bytes + part.begin)) {
      return false;
    }
    p += part.length;
  }
  run_taken = false;
  if constexpr (part.hole == '*') {
    if constexpr (part.common > 0) {
      // The common value and the next run, as bytes: the value is then exactly those bytes (the run
      // starts with a byte that ends a token).
      constexpr std::size_t both = part.common + kShape.parts[kPart + 1].length;
      if (static_cast<std::size_t>(stop() - p) >= both && same_run<both>(p, kShape.bytes + part.begin + part.length)) {
        p += both;
        run_taken = true;
        return true;
      }
    }
    const char* q = depth + part.depth <= json::kMaxDepth ? scalar(p) : nullptr;
    p = q != nullptr ? q : value(p, depth + part.depth);
    return p != nullptr;
  } else if constexpr (part.hole == '=') {
    Reader number(text(), static_cast<std::size_t>(p - text().data()), end());
    if (integer == nullptr || !number.int64(integer)) return false;
    p = number.here();
  }
  return true;
}

template <const Shape& kShape, int... kParts>
const char* Reader::shape_parts(const char* p, int depth, std::int64_t* integer,
                                std::integer_sequence<int, kParts...>) const noexcept {
  bool run_taken = false;
  return (shape_part<kShape, kParts>(p, run_taken, depth, integer) && ...) ? p : nullptr;
}

template <const Shape& kShape>
bool Reader::shaped(int depth, std::int64_t* integer) noexcept {
  if (depth > json::kMaxDepth) return false;
  const char* p = shape_parts<kShape>(spaces(here()), depth, integer, std::make_integer_sequence<int, kShape.count>{});
  if (p == nullptr) return false;
  move_to(p);
  return true;
}

// The spelling of an output round's players and pairs as `chinese-poker score` writes them (Python's
// json.dumps of formats.output.settlement_dict): read by their shape first, each key compared as a run of
// bytes. A value of any other spelling, key order or set of keys is read key by key.
// The common values are those of a round without fouls, naturals, surrenders, royalties or stakes.
constexpr Shape kPlayerShape{
    R"({"name": *, "index": *, "net": *, "foul": <false>, "natural": <null>, "surrendered": <false>, )"
    R"("home_run": <false>, "rows": )"
    R"({"front": {"cards": *, "strength": *, "category": *, "text": *, "royalty": <0>}, )"
    R"("middle": {"cards": *, "strength": *, "category": *, "text": *, "royalty": <0>}, )"
    R"("back": {"cards": *, "strength": *, "category": *, "text": *, "royalty": <0>}}})"};
constexpr Shape kPairShape{
    R"({"i": *, "j": *, "decided_by": <"rows">, "rows": [*, *, *], "foul": [<false>, <false>], )"
    R"("natural": [<null>, <null>], "royalties": [[<0>, <0>, <0>], [<0>, <0>, <0>]], )"
    R"("surrendered": [<false>, <false>], "natural_units": <0>, "surrender_units": <0>, "row_units": *, )"
    R"("royalty_units": <0>, "overall_units": <0>, "scoop": <0>, "scoop_bonus_units": <0>, "multiplier": <1>, )"
    R"("subtotal": *, "stake": <1>, "home_run": <1>, "units": =})"};

// The pairs' "units" of an output round: each pair an object whose "units" is an integer.
bool output_units(Reader& line, std::int64_t* units, int* count) noexcept {
  if (!line.take('[')) return false;
  *count = 0;
  if (line.take(']')) return true;
  do {
    if (*count == kMaxPairs) return false;
    // Each member's value is passed over at depth 0, as skip_value() below does.
    if (line.shaped<kPairShape>(-1, units + *count)) {
      ++*count;
      continue;
    }
    if (!line.take('{')) return false;
    bool seen = false;
    if (!line.peek('}')) {
      do {
        std::string_view key;
        if (!line.key(&key)) return false;
        if (key == "units") {
          if (seen || !line.int64(units + *count)) return false;
          seen = true;
        } else if (!line.skip_value()) {
          return false;
        }
      } while (line.take(','));
    }
    if (!line.take('}') || !seen) return false;
    ++*count;
  } while (line.take(','));
  return line.take(']');
}

// ----- compact replays: the deal ---------------------------------------------------------------------


bool separator(char c) noexcept { return c == ' ' || c == ',' || c == ';'; }

// Exactly `n` cards of two letters each between separators into `out`; false for any other text (which
// the card parser then reads).
bool plain_card_text(std::string_view text, std::size_t n, std::uint8_t* out) noexcept {
  std::size_t count = 0;
  for (std::size_t k = 0; k < text.size();) {
    if (separator(text[k])) {
      ++k;
      continue;
    }
    if (k + 1 >= text.size() || count == n) return false;
    const int rank = kCardLetters.rank[static_cast<unsigned char>(text[k])];
    const int suit = kCardLetters.suit[static_cast<unsigned char>(text[k + 1])];
    if (rank < 0 || suit < 0 || (k + 2 < text.size() && !separator(text[k + 2]))) return false;
    out[count++] = static_cast<std::uint8_t>(make_card(rank, suit));
    k += 2;
  }
  return count == n;
}

bool read_row(Reader& line, int size, std::uint8_t* out) noexcept {
  const auto n = static_cast<std::size_t>(size);
  if (line.peek('"')) {
    std::string_view text;
    if (!line.string(&text)) return false;
    if (plain_card_text(text, n, out)) return true;
    std::size_t count = 0;
    const CardTextIssue issue = parse_card_text(text, out, n, &count);
    if (!issue.ok || count != n) return false;
    for (std::size_t k = 0; k < n; ++k) {
      if (out[k] >= kDeckSize) return false;
    }
    return true;
  }
  if (!line.take('[')) return false;
  for (std::size_t k = 0; k < n; ++k) {
    if (k > 0 && !line.take(',')) return false;
    int card = -1;
    if (line.peek('"')) {
      std::string_view text;
      if (!line.string(&text)) return false;
      card = parse_card_token(text);
    } else {
      std::int64_t code = -1;
      if (!line.int64(&code) || code < 0 || code >= kDeckSize) return false;
      card = static_cast<int>(code);
    }
    if (card < 0 || card >= kDeckSize) return false;
    out[k] = static_cast<std::uint8_t>(card);
  }
  return line.take(']');
}

bool read_player(Reader& line, std::uint8_t* cards, std::string_view* name) noexcept {
  if (!line.take('{')) return false;
  unsigned seen = 0;
  if (!line.peek('}')) {
    do {
      std::string_view key;
      if (!line.key(&key)) return false;
      int row = -1;
      if (key == "front") row = 0;
      else if (key == "middle") row = 1;
      else if (key == "back") row = 2;
      if (row >= 0) {
        if ((seen >> row & 1u) != 0 || !read_row(line, kRowSize[row], cards + kRowStart[row])) return false;
        seen |= 1u << row;
      } else if (key == "name") {
        if ((seen & 8u) != 0 || !line.string(name)) return false;
        if (name->find_first_not_of(' ') == std::string_view::npos) return false;
        seen |= 8u;
      } else {
        return false;
      }
    } while (line.take(','));
  }
  return line.take('}') && (seen & 7u) == 7u;
}

bool read_players(Reader& line, std::uint8_t* cards, int* players) noexcept {
  if (!line.take('[')) return false;
  std::string_view names[kMaxPlayers] = {};
  int count = 0;
  do {
    if (count == kMaxPlayers || !read_player(line, cards + count * kHand, &names[count])) return false;
    ++count;
  } while (line.take(','));
  if (!line.take(']') || count < kMinPlayers) return false;
  // Every name (its own, else P1, P2, ... by seat) once.
  char defaults[kMaxPlayers][2];
  for (int p = 0; p < count; ++p) {
    defaults[p][0] = 'P';
    defaults[p][1] = static_cast<char>('1' + p);
    if (names[p].data() == nullptr) names[p] = std::string_view(defaults[p], 2);
  }
  for (int a = 0; a < count; ++a) {
    for (int b = a + 1; b < count; ++b) {
      if (names[a] == names[b]) return false;
    }
  }
  *players = count;
  return true;
}

int hex_digit(char c) noexcept {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// A hex string of `least`..`most` bytes, without spaces, into `out`.
bool hex_bytes(Reader& line, std::size_t least, std::size_t most, std::uint8_t* out, std::size_t* size) noexcept {
  std::string_view text;
  if (!line.string(&text) || text.size() % 2 != 0) return false;
  const std::size_t n = text.size() / 2;
  if (n < least || n > most) return false;
  for (std::size_t k = 0; k < n; ++k) {
    const int high = hex_digit(text[2 * k]), low = hex_digit(text[2 * k + 1]);
    if (high < 0 || low < 0) return false;
    out[k] = static_cast<std::uint8_t>(high << 4 | low);
  }
  *size = n;
  return true;
}

// The byte arrays are left unset until read_deal writes them, and only what it wrote (up to their
// sizes) is read: zeroing their kilobyte for every line, most of which have no deal, cost about 1 % of
// an output round's time.
struct Deal {
  std::string_view commitment;
  std::uint8_t server[64];
  std::size_t server_size = 0;
  // DOMAIN || u8(k) || (u8(len) || seed) for each client seed.
  std::uint8_t prefix[kDomain.size() + 1 + kMaxClientSeeds * 65];
  std::size_t prefix_size = 0;
  std::uint64_t nonce = 0;
};

bool read_deal(Reader& line, Deal* out) noexcept {
  if (!line.take('{')) return false;
  unsigned seen = 0;
  do {
    std::string_view key;
    if (!line.key(&key)) return false;
    unsigned bit = 0;
    bool ok = false;
    if (key == "commitment") {
      bit = 1;
      ok = line.string(&out->commitment);
    } else if (key == "server_seed") {
      bit = 2;
      ok = hex_bytes(line, 16, 64, out->server, &out->server_size);
    } else if (key == "client_seeds") {
      bit = 4;
      std::memcpy(out->prefix, kDomain.data(), kDomain.size());
      std::size_t at = kDomain.size() + 1, count = 0;
      ok = line.take('[');
      if (ok) {
        do {
          std::size_t size = 0;
          if (count == kMaxClientSeeds || !hex_bytes(line, 1, 64, out->prefix + at + 1, &size)) return false;
          out->prefix[at] = static_cast<std::uint8_t>(size);
          at += 1 + size;
          ++count;
        } while (line.take(','));
        ok = line.take(']');
      }
      out->prefix[kDomain.size()] = static_cast<std::uint8_t>(count);
      out->prefix_size = at;
    } else if (key == "nonce") {
      bit = 8;
      ok = line.uint64(&out->nonce);
    }
    if (!ok || (seen & bit) != 0) return false;
    seen |= bit;
  } while (line.take(','));
  return line.take('}') && seen == 15;
}

bool plain_id(Reader& line) noexcept {
  std::string_view text;
  return line.peek('"') ? line.string(&text) : line.number(true, &text);
}

// What a line's keys hold, each read where it stands (a key given twice sends the line to the general
// path: the general reader keeps the last).
struct Top {
  bool engine = false, has_receipt = false, has_digest = false, has_net = false, has_pairs = false;
  bool has_rules = false, has_id = false, has_players = false, has_deal = false;
  bool other = false;  // a key neither kind names
  bool players_read = false;
  const AuditRules* rules = nullptr;
  Receipt receipt;
  std::string_view digest;  // no data: null
  std::int64_t net[kMaxPlayers] = {};
  int net_count = 0;
  std::int64_t units[kMaxPairs] = {};
  int units_count = 0;
  std::uint8_t cards[kMaxPlayers * kHand] = {};
  int players = 0;
  Deal deal;
};

bool once(bool* seen) noexcept {
  if (*seen) return false;
  *seen = true;
  return true;
}

bool read_top(Reader& line, const AuditConfig& config, std::string_view receipt_head, Top* top) noexcept {
  if (!line.take('{')) return false;
  if (line.take('}')) return line.done();
  do {
    std::string_view key;
    if (!line.key(&key)) return false;
    bool ok = false;
    if (key == "engine") {
      ok = once(&top->engine) && line.skip_value();
    } else if (key == "receipt") {
      ok = once(&top->has_receipt) &&
           (spelled_receipt(line, receipt_head, config, &top->receipt) || read_receipt(line, &top->receipt));
    } else if (key == "rules") {
      std::string_view name;
      ok = once(&top->has_rules) && line.string(&name);
      for (const AuditRules& rules : config.rules) {
        if (rules.name == name) top->rules = &rules;
      }
    } else if (key == "rules_digest") {
      ok = once(&top->has_digest) && (line.word("null") || line.string(&top->digest));
    } else if (key == "net") {
      ok = once(&top->has_net) && json::int64_list(line, top->net, kMaxPlayers, &top->net_count);
    } else if (key == "pairs") {
      ok = once(&top->has_pairs) && output_units(line, top->units, &top->units_count);
    } else if (key == "id") {
      ok = once(&top->has_id) && plain_id(line);
    } else if (key == "players") {
      // Read as a compact replay's players when they are of that shape, else only checked as JSON (an
      // output round's players are not read by the audit).
      // An output round's "engine" comes first as score writes it: its players are then not tried as a
      // replay's.
      ok = once(&top->has_players);
      Reader copy = line;
      if (ok && !top->engine && read_players(copy, top->cards, &top->players)) {
        line = copy;
        top->players_read = true;
      } else if (ok) {
        ok = line.skip_list_of<kPlayerShape>();
      }
    } else if (key == "deal") {
      ok = once(&top->has_deal) && read_deal(line, &top->deal);
    } else {
      top->other = true;
      ok = line.skip_value();
    }
    if (!ok) return false;
  } while (line.take(','));
  return line.take('}') && line.done();
}

bool output_round(const Top& top, const AuditConfig& config) noexcept {
  const AuditRules* rules = top.rules;
  const Receipt& given = top.receipt;
  if (rules == nullptr || !top.has_receipt) return false;
  if (!config.key.empty() && !given.has_hmac) return false;
  // The body's room holds the config's strings up to this size (the rest of it is at most about 2 kB).
  if (config.engine_name.size() + config.engine_version.size() + config.receipt_format.size() +
          rules->digest.size() > kBodyRoom / 2) {
    return false;
  }
  for (int p = 0; p < given.players; ++p) {
    if (!rows_ascending(given.cards + p * kHand)) return false;
  }
  Settled settled;
  if (!settle_one(given.cards, given.players, rules->spec, &settled)) return false;
  // The receipt's fields are those of the settlement.
  if (given.format != config.receipt_format || given.engine_name != config.engine_name ||
      given.engine_version != config.engine_version || given.digest != rules->digest ||
      given.net_count != settled.players || given.pair_count != settled.pairs) {
    return false;
  }
  for (int p = 0; p < settled.players; ++p) {
    if (given.net[p] != settled.net[p]) return false;
  }
  int pair = 0;
  for (int i = 0; i < settled.players; ++i) {
    for (int j = i + 1; j < settled.players; ++j, ++pair) {
      const Receipt::Pair& g = given.pairs[pair];
      if (g.i != i || g.j != j || g.stake != settled.stake[pair] || g.stake != 1 ||
          g.units != settled.units[pair] || g.decided_by != kDecidedBy[settled.decided_by[pair]]) {
        return false;
      }
    }
  }
  // Its digests are those of its (canonical) body.
  char body[kBodyRoom];
  const std::size_t size = receipt_body(settled, given.cards, config, *rules, body);
  const auto* bytes = reinterpret_cast<const std::uint8_t*>(body);
  if (!same_digest(given.sha256, fair::sha256(bytes, size))) return false;
  if (!config.key.empty()) {
    const auto* key = reinterpret_cast<const std::uint8_t*>(config.key.data());
    if (!same_digest(given.hmac, fair::hmac_sha256(key, config.key.size(), bytes, size))) return false;
  }
  // The line's own rules digest (null: not checked), nets and pairs' units.
  if (top.has_digest && top.digest.data() != nullptr && top.digest != rules->digest) return false;
  if (top.has_net) {
    if (top.net_count != settled.players) return false;
    for (int p = 0; p < settled.players; ++p) {
      if (top.net[p] != settled.net[p]) return false;
    }
  }
  if (top.has_pairs) {
    if (top.units_count != settled.pairs) return false;
    for (int k = 0; k < settled.pairs; ++k) {
      if (top.units[k] != settled.units[k]) return false;
    }
  }
  return true;
}

bool replay_round(const Top& top) noexcept {
  if (top.other || top.has_receipt || top.has_net || top.has_digest || top.has_pairs || !top.has_deal ||
      !top.players_read || top.rules == nullptr) {
    return false;
  }
  const Deal& deal = top.deal;
  const int players = top.players;
  // The fast path's rules hold one plain pack: 4 seats at most.
  if (players > kNumSuits) return false;
  if (!same_digest(deal.commitment, fair::sha256(deal.server, deal.server_size))) return false;
  std::uint8_t pack[kDeckSize];
  for (int c = 0; c < kDeckSize; ++c) pack[c] = static_cast<std::uint8_t>(c);
  std::uint8_t dealt[kMaxPlayers * kHand];
  fair::deal(deal.server, deal.server_size, deal.prefix, deal.prefix_size, deal.nonce, pack, kDeckSize,
             players * kHand, dealt);
  for (int p = 0; p < players; ++p) {
    std::uint64_t held = 0, given = 0;
    for (int k = 0; k < kHand; ++k) {
      held |= std::uint64_t{1} << top.cards[p * kHand + k];
      given |= std::uint64_t{1} << dealt[p * kHand + k];
    }
    if (held != given) return false;
  }
  Settled settled;
  return settle_one(top.cards, players, top.rules->spec, &settled);
}

AuditLine audit_line(std::string_view text, const AuditConfig& config, std::string_view receipt_head) noexcept {
  if (blank(text)) return AuditLine::kBlank;
  while (!text.empty() && text.back() == '\r') text.remove_suffix(1);
  if (!plain_line(text)) return AuditLine::kGeneral;
  Reader line(text);
  Top top;
  if (!read_top(line, config, receipt_head, &top)) return AuditLine::kGeneral;
  const bool ok = top.engine ? output_round(top, config) : replay_round(top);
  return ok ? AuditLine::kMatches : AuditLine::kGeneral;
}

}  // namespace

void audit_lines(std::string_view text, const AuditConfig& config, std::vector<std::uint8_t>* out) {
  out->clear();
  // The start of a receipt as our writer spells it, up to its rules digest (spelled_receipt).
  const std::string receipt_head = "{\"format\": \"" + config.receipt_format + "\", \"engine\": {\"name\": \"" +
                                   config.engine_name + "\", \"version\": \"" + config.engine_version +
                                   "\"}, \"rules_digest\": ";
  std::size_t begin = 0;
  while (true) {
    const std::size_t nl = text.find('\n', begin);
    const std::size_t end = nl == std::string_view::npos ? text.size() : nl;
    out->push_back(static_cast<std::uint8_t>(audit_line(text.substr(begin, end - begin), config, receipt_head)));
    if (nl == std::string_view::npos) break;
    begin = nl + 1;
  }
}

}  // namespace chinese_poker
