// JSON token scanning for the line readers (round_lines.cpp, audit_lines.cpp): white space, literals,
// numbers, strings with their escapes, keys, and passing over any value. One line at a time, over a span
// [begin, end) of a larger text, so that what a reader keeps (a string's bytes) is an offset into the text.
// Every read checks the bounds first and allocates nothing; a read that fails leaves the position
// unspecified, since the readers then give the line up (to the general path).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <string_view>
#include <type_traits>

namespace chinese_poker::json {

// Longer numbers are left to the general path (Python's int conversion has a limit on digits).
constexpr std::size_t kMaxDigits = 1000;
// Deeper values too (the general reader's nesting limit is lower still for rules documents).
constexpr int kMaxDepth = 64;

constexpr bool is_digit(char c) noexcept { return c >= '0' && c <= '9'; }

// JSON's white space: space, tab, CR and LF (a line holds no LF). One test of a bit mask, as this runs
// between every two tokens.
constexpr bool is_space(char c) noexcept {
  constexpr std::uint64_t kSpaces = std::uint64_t{1} << ' ' | std::uint64_t{1} << '\t' | std::uint64_t{1} << '\r' |
                                    std::uint64_t{1} << '\n';
  const auto byte = static_cast<unsigned char>(c);
  return byte <= ' ' && (kSpaces >> byte & 1u) != 0;
}

// A byte that may not follow a number directly: it would make the token something other than a number.
constexpr bool is_word(char c) noexcept {
  return is_digit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '.' || c == '+' || c == '-';
}

// A string token: its bytes between the quotes as an offset into the text, whether they hold an escape,
// and whether every byte is printable ASCII (0x20..0x7E) with no escape (the bytes are then the value).
struct StringSpan {
  std::size_t begin = 0;
  std::size_t length = 0;
  bool escaped = false;
  bool plain = true;
};

inline int hex_digit(char c) noexcept {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// Four hex digits at `at` (the caller checked they are in bounds), or -1.
inline long hex4(const char* at) noexcept {
  long value = 0;
  for (int k = 0; k < 4; ++k) {
    const int digit = hex_digit(at[k]);
    if (digit < 0) return -1;
    value = value * 16 + digit;
  }
  return value;
}

class Scanner {
 public:
  explicit Scanner(std::string_view text) noexcept : text_(text), pos_(0), end_(text.size()) {}
  Scanner(std::string_view text, std::size_t begin, std::size_t end) noexcept : text_(text), pos_(begin), end_(end) {}

  std::size_t pos() const noexcept { return pos_; }
  std::size_t end() const noexcept { return end_; }
  // Moves on to `pos`, which a reader has checked itself (within the span, after the current position).
  void skip_to(std::size_t pos) noexcept { pos_ = pos; }
  std::string_view text() const noexcept { return text_; }
  std::string_view slice(std::size_t begin, std::size_t length) const noexcept { return text_.substr(begin, length); }

  // At the end of the span, white space not skipped.
  bool at_end() const noexcept { return pos_ >= end_; }
  // Only white space is left.
  bool done() noexcept {
    skip_space();
    return pos_ >= end_;
  }

  void skip_space() noexcept {
    while (pos_ < end_ && is_space(text_[pos_])) ++pos_;
  }

  // The next byte, white space skipped, or '\0' at the end of the span (a NUL byte is never a token the
  // readers take, so the two never need telling apart).
  char next() noexcept {
    skip_space();
    return pos_ < end_ ? text_[pos_] : '\0';
  }

  bool peek(char c) noexcept {
    skip_space();
    return pos_ < end_ && text_[pos_] == c;
  }

  // The next token is `c`: consumed (after white space), true.
  bool take(char c) noexcept {
    if (!peek(c)) return false;
    ++pos_;
    return true;
  }

  // A literal (true, false, null) not run on into a longer word.
  bool word(std::string_view literal) noexcept {
    skip_space();
    if (end_ - pos_ < literal.size() || text_.compare(pos_, literal.size(), literal) != 0) return false;
    pos_ += literal.size();
    return pos_ >= end_ || !is_word(text_[pos_]);
  }

  bool boolean(bool* out) noexcept {
    if (word("true")) {
      *out = true;
      return true;
    }
    if (word("false")) {
      *out = false;
      return true;
    }
    return false;
  }

  // A JSON number of at most kMaxDigits digits in each part; `integer`: without fraction or exponent.
  // The token's text in *out.
  bool number(bool integer, std::string_view* out) noexcept {
    skip_space();
    const std::size_t start = pos_;
    if (pos_ < end_ && text_[pos_] == '-') ++pos_;
    const std::size_t digits = pos_;
    while (pos_ < end_ && is_digit(text_[pos_])) ++pos_;
    const std::size_t count = pos_ - digits;
    if (count == 0 || count > kMaxDigits || (count > 1 && text_[digits] == '0')) return false;
    if (pos_ < end_ && text_[pos_] == '.') {
      if (integer) return false;
      const std::size_t at = ++pos_;
      while (pos_ < end_ && is_digit(text_[pos_])) ++pos_;
      if (pos_ == at || pos_ - at > kMaxDigits) return false;
    }
    if (pos_ < end_ && (text_[pos_] == 'e' || text_[pos_] == 'E')) {
      if (integer) return false;
      ++pos_;
      if (pos_ < end_ && (text_[pos_] == '+' || text_[pos_] == '-')) ++pos_;
      const std::size_t at = pos_;
      while (pos_ < end_ && is_digit(text_[pos_])) ++pos_;
      if (pos_ == at || pos_ - at > 4) return false;
    }
    if (pos_ < end_ && is_word(text_[pos_])) return false;
    *out = text_.substr(start, pos_ - start);
    return true;
  }

  // An integer in JSON's grammar (-?(0|[1-9][0-9]*)), neither a fraction nor an exponent, within int64.
  bool int64(std::int64_t* value) noexcept {
    skip_space();
    bool negative = false;
    if (pos_ < end_ && text_[pos_] == '-') {
      negative = true;
      ++pos_;
    }
    const std::size_t start = pos_;
    // The magnitude is kept in uint64 and bounded before each step: at most 2^63 for a negative number,
    // 2^63 - 1 otherwise (the bound's last digit is 8 or 7).
    constexpr std::uint64_t kTenth = (std::uint64_t{1} << 63) / 10;
    const std::uint64_t last_digit = negative ? 8 : 7;
    std::uint64_t magnitude = 0;
    while (pos_ < end_ && is_digit(text_[pos_])) {
      const auto digit = static_cast<std::uint64_t>(text_[pos_] - '0');
      if (magnitude > kTenth || (magnitude == kTenth && digit > last_digit)) return false;
      magnitude = magnitude * 10 + digit;
      ++pos_;
    }
    const std::size_t digits = pos_ - start;
    if (digits == 0 || (digits > 1 && text_[start] == '0')) return false;
    if (pos_ < end_ && is_word(text_[pos_])) return false;
    if (negative) {
      // -2^63 has no positive int64; every other magnitude negates inside int64.
      *value = magnitude == (std::uint64_t{1} << 63) ? std::numeric_limits<std::int64_t>::min()
                                                     : -static_cast<std::int64_t>(magnitude);
    } else {
      *value = static_cast<std::int64_t>(magnitude);
    }
    return true;
  }

  // A non-negative integer within uint64.
  bool uint64(std::uint64_t* value) noexcept {
    skip_space();
    const std::size_t start = pos_;
    std::uint64_t magnitude = 0;
    constexpr std::uint64_t kMax = std::numeric_limits<std::uint64_t>::max();
    while (pos_ < end_ && is_digit(text_[pos_])) {
      const auto digit = static_cast<std::uint64_t>(text_[pos_] - '0');
      if (magnitude > (kMax - digit) / 10) return false;
      magnitude = magnitude * 10 + digit;
      ++pos_;
    }
    const std::size_t digits = pos_ - start;
    if (digits == 0 || (digits > 1 && text_[start] == '0')) return false;
    if (pos_ < end_ && is_word(text_[pos_])) return false;
    *value = magnitude;
    return true;
  }

  // A small non-negative integer below `limit` (at most 100) as a JSON integer: the common case of
  // int64(), read in at most two digits without a branch on their count (half the card codes have each,
  // so a branch would mispredict).
  bool small_code(unsigned limit, int* code) noexcept {
    skip_space();
    if (pos_ >= end_) return false;
    const unsigned first = static_cast<unsigned char>(text_[pos_]) - unsigned{'0'};
    if (first > 9) return false;
    const unsigned second = pos_ + 1 < end_ ? static_cast<unsigned char>(text_[pos_ + 1]) - unsigned{'0'} : 10u;
    const bool two = second <= 9;
    if (two && first == 0) return false;  // a leading zero is not JSON
    const unsigned value = two ? first * 10 + second : first;
    pos_ += two ? 2 : 1;
    if (pos_ < end_ && is_word(text_[pos_])) return false;
    if (value >= limit) return false;
    *code = static_cast<int>(value);
    return true;
  }

  // A string in JSON's grammar: no raw control character, every escape one of \" \\ \/ \b \f \n \r \t
  // \uXXXX. Non-ASCII bytes are taken as they stand (the readers' callers check UTF-8 where it matters).
  bool string(StringSpan* out) noexcept {
    if (!take('"')) return false;
    const std::size_t start = pos_;
    bool escaped = false, plain = true;
    while (pos_ < end_) {
      const unsigned char c = static_cast<unsigned char>(text_[pos_]);
      if (c == '"') {
        out->begin = start;
        out->length = pos_ - start;
        out->escaped = escaped;
        out->plain = plain;
        ++pos_;
        return true;
      }
      if (c < 0x20) return false;
      if (c == '\\') {
        escaped = true;
        plain = false;
        if (pos_ + 1 >= end_) return false;
        const char e = text_[pos_ + 1];
        if (e == 'u') {
          if (end_ - pos_ < 6 || hex4(text_.data() + pos_ + 2) < 0) return false;
          pos_ += 6;
          continue;
        }
        if (e != '"' && e != '\\' && e != '/' && e != 'b' && e != 'f' && e != 'n' && e != 'r' && e != 't') {
          return false;
        }
        pos_ += 2;
        continue;
      }
      if (c >= 0x7F) plain = false;
      ++pos_;
    }
    return false;
  }

  // A string's bytes between the quotes (escapes left as they stand).
  bool string(std::string_view* out) noexcept {
    StringSpan span;
    if (!string(&span)) return false;
    *out = text_.substr(span.begin, span.length);
    return true;
  }

  // A key and its colon. The name is the key's bytes as they stand: an escaped key equals none of the
  // plain names the readers compare it with, so it is refused as an unknown key.
  bool key(std::string_view* name) noexcept { return string(name) && take(':'); }

  // Any JSON value, checked and passed over.
  bool skip_value(int depth = 0) noexcept {
    if (depth > kMaxDepth) return false;
    skip_space();
    if (pos_ >= end_) return false;
    const char c = text_[pos_];
    if (c == '"') {
      StringSpan span;
      return string(&span);
    }
    if (c == '{') {
      ++pos_;
      if (take('}')) return true;
      do {
        std::string_view name;
        if (!key(&name) || !skip_value(depth + 1)) return false;
      } while (take(','));
      return take('}');
    }
    if (c == '[') {
      ++pos_;
      if (take(']')) return true;
      do {
        if (!skip_value(depth + 1)) return false;
      } while (take(','));
      return take(']');
    }
    if (c == 't') return word("true");
    if (c == 'f') return word("false");
    if (c == 'n') return word("null");
    std::string_view digits;
    return number(false, &digits);
  }

 private:
  std::string_view text_;
  std::size_t pos_;
  std::size_t end_;
};

// Appends the UTF-8 bytes of code point `cp` to `out`.
inline void append_utf8(long cp, std::string* out) {
  if (cp < 0x80) {
    out->push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out->push_back(static_cast<char>(0xC0 | (cp >> 6)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else if (cp < 0x10000) {
    out->push_back(static_cast<char>(0xE0 | (cp >> 12)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else {
    out->push_back(static_cast<char>(0xF0 | (cp >> 18)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  }
}

// Whether `bytes` is well-formed UTF-8 (no overlong form, no surrogate, nothing past U+10FFFF).
inline bool valid_utf8(std::string_view bytes) noexcept {
  std::size_t k = 0;
  const std::size_t n = bytes.size();
  while (k < n) {
    const auto c = static_cast<unsigned char>(bytes[k]);
    if (c < 0x80) {
      ++k;
      continue;
    }
    std::size_t extra = 0;
    unsigned long cp = 0;
    if (c >= 0xC2 && c <= 0xDF) {
      extra = 1;
      cp = c & 0x1Fu;
    } else if (c >= 0xE0 && c <= 0xEF) {
      extra = 2;
      cp = c & 0x0Fu;
    } else if (c >= 0xF0 && c <= 0xF4) {
      extra = 3;
      cp = c & 0x07u;
    } else {
      return false;
    }
    if (n - k <= extra) return false;
    for (std::size_t m = 1; m <= extra; ++m) {
      const auto b = static_cast<unsigned char>(bytes[k + m]);
      if ((b & 0xC0u) != 0x80u) return false;
      cp = cp << 6 | (b & 0x3Fu);
    }
    const bool overlong = (extra == 2 && cp < 0x800) || (extra == 3 && cp < 0x10000);
    if (overlong || (cp >= 0xD800 && cp <= 0xDFFF) || cp > 0x10FFFF) return false;
    k += extra + 1;
  }
  return true;
}

// The value of a string token's bytes (as Scanner::string checked them) as UTF-8 into `out`: false when
// an escape names a lone surrogate (a value UTF-8 cannot hold, which the general path reports), or the
// raw bytes are not UTF-8.
inline bool decode_string(std::string_view raw, std::string* out) {
  out->clear();
  if (!valid_utf8(raw)) return false;
  std::size_t k = 0;
  while (k < raw.size()) {
    const char c = raw[k];
    if (c != '\\') {
      out->push_back(c);
      ++k;
      continue;
    }
    const char e = raw[k + 1];
    k += 2;
    switch (e) {
      case 'b': out->push_back('\b'); break;
      case 'f': out->push_back('\f'); break;
      case 'n': out->push_back('\n'); break;
      case 'r': out->push_back('\r'); break;
      case 't': out->push_back('\t'); break;
      case 'u': {
        long cp = hex4(raw.data() + k);
        k += 4;
        if (cp >= 0xDC00 && cp <= 0xDFFF) return false;
        if (cp >= 0xD800 && cp <= 0xDBFF) {
          if (raw.size() - k < 6 || raw[k] != '\\' || raw[k + 1] != 'u') return false;
          const long low = hex4(raw.data() + k + 2);
          if (low < 0xDC00 || low > 0xDFFF) return false;
          k += 6;
          cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
        }
        append_utf8(cp, out);
        break;
      }
      default: out->push_back(e); break;  // " \ /
    }
  }
  return true;
}

// A list of at most `most` int64 values into `out`, `*count` of them, read by `reader` (a Scanner, or a
// reader that shadows its take and int64 with faster ones for its lines). `most` takes the type of
// `*count` (not deduced), so a constant of another integer type converts.
template <class Reader, class Count>
bool int64_list(Reader& reader, std::int64_t* out, typename std::common_type<Count>::type most, Count* count) noexcept {
  if (!reader.take('[')) return false;
  *count = 0;
  if (reader.take(']')) return true;
  do {
    if (*count == most || !reader.int64(out + *count)) return false;
    ++*count;
  } while (reader.take(','));
  return reader.take(']');
}

}  // namespace chinese_poker::json
