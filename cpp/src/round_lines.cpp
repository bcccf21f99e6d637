#include "chinese_poker/round_lines.hpp"

#include <charconv>
#include <cstring>
#include <limits>

#include "chinese_poker/card_text.hpp"
#include "chinese_poker/cards.hpp"
#include "chinese_poker/settle.hpp"
#include "json_scan.hpp"

namespace chinese_poker {

namespace {

constexpr int kCardsPerHand = 13;
constexpr int kRowSize[3] = {3, 5, 5};
constexpr int kRowStart[3] = {0, 3, 8};

using Line = json::Scanner;

// The common card text, two letters a card ("Ks Kh Kd", "ks,kh,kd") between ASCII separators (space,
// ',' or ';'), read through a table: exactly `n` cards into `out`, true; false when the text is anything
// else, which parse_card_text then reads (it reads this form to the same codes, and every other form).
bool plain_card_text(std::string_view text, std::size_t n, std::uint8_t* out) noexcept {
  std::size_t count = 0;
  std::size_t k = 0;
  while (k < text.size()) {
    const unsigned char c = static_cast<unsigned char>(text[k]);
    if (c == ' ' || c == ',' || c == ';') {
      ++k;
      continue;
    }
    if (k + 1 >= text.size() || count == n) return false;
    const int rank = kCardLetters.rank[c];
    const int suit = kCardLetters.suit[static_cast<unsigned char>(text[k + 1])];
    if (rank < 0 || suit < 0) return false;
    // A card must end its chunk here, or the general parser reads the chunk (e.g. "AsKd").
    if (k + 2 < text.size()) {
      const char next = text[k + 2];
      if (next != ' ' && next != ',' && next != ';') return false;
    }
    out[count++] = static_cast<std::uint8_t>(make_card(rank, suit));
    k += 2;
  }
  return count == n;
}

// One row's cards into `out` (exactly `size` codes 0..51): a card text string, or a list of card strings
// and codes.
bool read_row(Line& line, int size, std::uint8_t* out) {
  const auto n = static_cast<std::size_t>(size);
  if (line.peek('"')) {
    json::StringSpan span;
    if (!line.string(&span) || span.escaped) return false;
    const std::string_view text = line.slice(span.begin, span.length);
    if (plain_card_text(text, n, out)) return true;
    std::size_t count = 0;
    const CardTextIssue issue = parse_card_text(text, out, n, &count);
    if (!issue.ok || count != n) return false;
    for (std::size_t k = 0; k < n; ++k) {
      if (out[k] >= kDeckSize) return false;  // a joker: the general path knows the pack
    }
    return true;
  }
  if (!line.take('[')) return false;
  for (std::size_t k = 0; k < n; ++k) {
    if (k > 0 && !line.take(',')) return false;
    int card = -1;
    if (line.next() == '"') {
      json::StringSpan span;
      if (!line.string(&span) || span.escaped) return false;
      card = parse_card_token(line.slice(span.begin, span.length));
    } else if (!line.small_code(unsigned{kDeckSize}, &card)) {
      return false;
    }
    if (card < 0 || card >= kDeckSize) return false;
    out[k] = static_cast<std::uint8_t>(card);
  }
  return line.take(']');
}

// A name that the general reader accepts as given: not only spaces (printable ASCII is all the reader
// takes, and of it only the space is white space).
bool usable_name(std::string_view name) noexcept { return name.find_first_not_of(' ') != std::string_view::npos; }

// The name a player goes by: its own, else P1, P2, ... by seat.
bool same_name(std::string_view a, int seat_a, std::string_view b, int seat_b) noexcept {
  char default_a[2] = {'P', static_cast<char>('1' + seat_a)};
  char default_b[2] = {'P', static_cast<char>('1' + seat_b)};
  const std::string_view x = a.data() != nullptr ? a : std::string_view(default_a, 2);
  const std::string_view y = b.data() != nullptr ? b : std::string_view(default_b, 2);
  return x == y;
}

// One player object: its 13 cards into `cards`, its name (or an empty view with no data) into `name`.
bool read_player(Line& line, std::uint8_t* cards, std::string_view* name) {
  if (!line.take('{')) return false;
  unsigned seen = 0;  // bit 0..2: front, middle, back; bit 3: name
  if (!line.peek('}')) {
    do {
      std::string_view key;
      if (!line.key(&key)) return false;
      int row = -1;
      if (key == "front") row = 0;
      else if (key == "middle") row = 1;
      else if (key == "back") row = 2;
      if (row >= 0) {
        if ((seen >> row & 1u) != 0) return false;
        seen |= 1u << row;
        if (!read_row(line, kRowSize[row], cards + kRowStart[row])) return false;
      } else if (key == "name") {
        if ((seen & 8u) != 0) return false;
        seen |= 8u;
        json::StringSpan span;
        if (!line.string(&span) || !span.plain) return false;
        *name = line.slice(span.begin, span.length);
        if (!usable_name(*name)) return false;
      } else {
        return false;
      }
    } while (line.take(','));
  }
  return line.take('}') && (seen & 7u) == 7u;
}

// The players of one round into `cards` (room for max_players x 13) and their count into `*players`.
bool read_players(Line& line, int max_players, std::uint8_t* cards, int* players) {
  if (!line.take('[')) return false;
  std::string_view names[kMaxPlayers] = {};
  int count = 0;
  if (!line.peek(']')) {
    do {
      if (count >= max_players) return false;
      if (!read_player(line, cards + count * kCardsPerHand, &names[count])) return false;
      ++count;
    } while (line.take(','));
  }
  if (!line.take(']') || count < kMinPlayers) return false;
  for (int a = 0; a < count; ++a) {
    for (int b = a + 1; b < count; ++b) {
      if (same_name(names[a], a, names[b], b)) return false;
    }
  }
  // No card twice in the round (within a hand or across hands): one pack of 52.
  std::uint64_t held = 0;
  for (int k = 0; k < count * kCardsPerHand; ++k) {
    const std::uint64_t bit = std::uint64_t{1} << cards[k];
    if ((held & bit) != 0) return false;
    held |= bit;
  }
  *players = count;
  return true;
}

// One round object, the whole line.
bool read_round(Line& line, int max_players, std::uint8_t* cards, int* players, RoundLineId* id) {
  if (!line.take('{')) return false;
  bool has_id = false, has_players = false;
  if (!line.peek('}')) {
    do {
      std::string_view key;
      if (!line.key(&key)) return false;
      if (key == "id") {
        if (has_id) return false;
        has_id = true;
        if (line.peek('"')) {
          id->kind = RoundIdKind::kString;
          json::StringSpan span;
          if (!line.string(&span) || !span.plain) return false;
          id->begin = span.begin;
          id->length = span.length;
        } else {
          id->kind = RoundIdKind::kInteger;
          if (!line.int64(&id->value)) return false;
        }
      } else if (key == "players") {
        if (has_players) return false;
        has_players = true;
        if (!read_players(line, max_players, cards, players)) return false;
      } else {
        return false;
      }
    } while (line.take(','));
  }
  if (!line.take('}') || !has_players) return false;
  line.skip_space();
  return line.at_end();
}

// Blank as the general reader judges a line: only ASCII white space (bytes.strip()).
bool blank(std::string_view text, std::size_t begin, std::size_t end) noexcept {
  for (std::size_t k = begin; k < end; ++k) {
    const char c = text[k];
    if (c != ' ' && c != '\t' && c != '\r' && c != '\v' && c != '\f') return false;
  }
  return true;
}

std::size_t line_end(std::string_view text, std::size_t begin) noexcept {
  const std::size_t nl = text.find('\n', begin);
  return nl == std::string_view::npos ? text.size() : nl;
}

// Room for one value written by std::to_chars: int64's 19 digits and a sign.
constexpr std::size_t kIntChars = 20;

char* write_int(char* at, char* end, std::int64_t value) noexcept {
  const std::to_chars_result result = std::to_chars(at, end, value);
  return result.ptr;  // the room is reserved by the caller, so this never fails
}

}  // namespace

bool read_round_lines(std::string_view text, std::size_t max_rounds, int max_players, RoundLines* out) {
  if (max_players > kMaxPlayers) max_players = kMaxPlayers;
  if (max_players < kMinPlayers || max_rounds == 0) return false;
  std::size_t start = 0;
  if (text.size() >= 3 && text.compare(0, 3, "\xEF\xBB\xBF") == 0) start = 3;
  // Room for every round at once: at most one per line, and at most max_rounds.
  std::size_t lines = 1;
  for (std::size_t k = text.find('\n', start); k != std::string_view::npos; k = text.find('\n', k + 1)) ++lines;
  const std::size_t room = lines < max_rounds ? lines : max_rounds;
  constexpr std::size_t kRoundBytes = std::size_t{kMaxPlayers} * kCardsPerHand;
  if (room > std::numeric_limits<std::size_t>::max() / kRoundBytes) return false;
  out->cards.assign(room * kRoundBytes, 0);
  out->ids.assign(room, RoundLineId{});
  out->rounds = 0;
  out->players = 0;
  out->more = false;
  std::uint8_t* cards = out->cards.data();
  for (std::size_t begin = start; begin <= text.size();) {
    const std::size_t end = line_end(text, begin);
    if (!blank(text, begin, end)) {
      if (out->rounds == max_rounds) {
        out->more = true;
        break;
      }
      const std::size_t index = out->rounds;
      Line line(text, begin, end);
      RoundLineId* id = &out->ids[index];
      int players = 0;
      // Each round is read at its own stride once the count is known; until then (the first round) the
      // stride is the largest, which is where round 0 starts either way.
      const std::size_t stride = out->players != 0 ? static_cast<std::size_t>(out->players) * kCardsPerHand : 0;
      std::uint8_t* round_cards = cards + index * stride;
      if (!read_round(line, max_players, round_cards, &players, id)) return false;
      if (out->players == 0) out->players = players;
      if (players != out->players) return false;
      if (id->kind == RoundIdKind::kPosition) id->value = static_cast<std::int64_t>(index + 1);
      out->rounds = index + 1;
    }
    begin = end + 1;
  }
  if (out->rounds == 0) return false;
  out->cards.resize(out->rounds * static_cast<std::size_t>(out->players) * kCardsPerHand);
  out->ids.resize(out->rounds);
  return true;
}

void write_net_lines(std::string_view text, const RoundLines& lines, const std::int64_t* net, std::string* out) {
  const auto players = static_cast<std::size_t>(lines.players);
  // The most one line can take, so that the buffer is sized once: {"id": ID ,"net":[ N,N,... ]}\n
  constexpr std::string_view kHead = "{\"id\":", kMiddle = ",\"net\":[", kTail = "]}\n";
  std::size_t room = 0;
  for (std::size_t r = 0; r < lines.rounds; ++r) {
    const RoundLineId& id = lines.ids[r];
    room += kHead.size() + (id.kind == RoundIdKind::kString ? id.length + 2 : kIntChars) + kMiddle.size() +
            players * (kIntChars + 1) + kTail.size();
  }
  const std::size_t first = out->size();
  out->resize(first + room);
  char* at = &(*out)[first];
  char* const end = at + room;
  for (std::size_t r = 0; r < lines.rounds; ++r) {
    const RoundLineId& id = lines.ids[r];
    std::memcpy(at, kHead.data(), kHead.size());
    at += kHead.size();
    if (id.kind == RoundIdKind::kString) {
      *at++ = '"';
      std::memcpy(at, text.data() + id.begin, id.length);
      at += id.length;
      *at++ = '"';
    } else {
      at = write_int(at, end, id.value);
    }
    std::memcpy(at, kMiddle.data(), kMiddle.size());
    at += kMiddle.size();
    for (std::size_t p = 0; p < players; ++p) {
      if (p > 0) *at++ = ',';
      at = write_int(at, end, net[r * players + p]);
    }
    std::memcpy(at, kTail.data(), kTail.size());
    at += kTail.size();
  }
  out->resize(static_cast<std::size_t>(at - out->data()));
}

bool settle_net_lines(std::string_view text, const RulesSpec& rules, std::size_t max_rounds, int max_players,
                      const Parallel& parallel, std::string* out, bool* more) {
  if (rules.extra_suits != 0 || rules.jokers != 0) return false;
  RoundLines lines;
  if (!read_round_lines(text, max_rounds, max_players, &lines)) return false;
  std::vector<std::int64_t> net(lines.rounds * static_cast<std::size_t>(lines.players));
  BatchOutputs outputs;
  outputs.net = net.data();
  const SettleError error = settle_batch(lines.cards.data(), lines.rounds, lines.players, rules, BatchInputs{},
                                         outputs, parallel);
  if (error) return false;
  write_net_lines(text, lines, net.data(), out);
  *more = lines.more;
  return true;
}

}  // namespace chinese_poker
