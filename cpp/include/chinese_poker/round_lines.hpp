// A strict reader for the common shape of JSON Lines rounds (docs/JSON_FORMAT.md), and the writer of
// their net lines. The service's batch endpoint uses it as a fast path: it reads only what it understands
// completely and says "not simple" for everything else, and the caller then takes its general path, which
// gives every answer and every error message. So this reader never reports what is wrong with a round.
//
// A simple line (after an optional UTF-8 byte order mark at the start of the text) is an object with
// optional "id" (an integer within int64, or a string of printable ASCII without escapes) and "players":
// 2 to max_players objects, each with "front", "middle" and "back" (a card text string, or a list of card
// strings and codes 0..51) and optionally "name" (printable ASCII without escapes, not only spaces, unique
// in the round beside the default names P1, P2, ...). No other key, no key twice, no escape, no byte
// outside ASCII except in card text (where the card parser reads only the suit symbols and separators),
// no joker, no card twice in a round, 3, 5 and 5 cards, and every round with the same number of players.
// White space between tokens is JSON's (space, tab, CR); a line of only ASCII white space (also VT and FF)
// is blank and skipped, as the general reader skips it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "chinese_poker/parallel.hpp"
#include "chinese_poker/round_output.hpp"
#include "chinese_poker/rules.hpp"
#include "chinese_poker/settle.hpp"

namespace chinese_poker {

// How a round's id was given: not at all (its 1-based position among the non-blank lines stands in), as
// an integer, or as a string whose bytes need no escape.
enum class RoundIdKind : std::uint8_t { kPosition, kInteger, kString };

struct RoundLineId {
  RoundIdKind kind = RoundIdKind::kPosition;
  std::int64_t value = 0;   // kPosition: the position; kInteger: the integer
  std::size_t begin = 0;    // kString: the bytes between the quotes, as an offset into the text
  std::size_t length = 0;
  // scan_round_lines only: the string held an escape or a byte beyond ASCII, and [begin, begin + length)
  // is its value (UTF-8, escapes undone) in RoundScan::strings instead.
  bool decoded = false;
};

struct RoundLines {
  int players = 0;                  // every round's number of players
  std::size_t rounds = 0;           // rounds read (at most max_rounds)
  std::vector<std::uint8_t> cards;  // rounds x players x 13: front 3, middle 5, back 5
  std::vector<RoundLineId> ids;     // one per round
  bool more = false;                // a further non-blank line follows the max_rounds rounds read
};

// Reads the rounds of `text` into `out`, at most `max_rounds` of them (a further non-blank line only sets
// `more`, unread); true when every line read is simple (see above) and there is at least one round, false
// otherwise (then `out` is unspecified). Allocates once per call (sized by the text), never per round.
[[nodiscard]] bool read_round_lines(std::string_view text, std::size_t max_rounds, int max_players,
                                    RoundLines* out);

// Appends to `out` one line per round of `lines` (read from `text`): {"id":ID,"net":[N1,...]} and "\n",
// compact, the id as the round gave it (its position when it gave none), `net` the rounds x players net
// units. The same bytes as the service's and the command line's writer for the same rounds.
void write_net_lines(std::string_view text, const RoundLines& lines, const std::int64_t* net, std::string* out);

// read_round_lines, settle_batch under `rules` (nobody declares or surrenders, stakes 1) and
// write_net_lines: true and the lines in `out` (and `*more`), or false when the text is not simple, the
// rules' pack is not one plain 52-card deck (added suits or jokers), or the core rejects a round.
[[nodiscard]] bool settle_net_lines(std::string_view text, const RulesSpec& rules, std::size_t max_rounds,
                                    int max_players, const Parallel& parallel, std::string* out, bool* more);


// ----- Every round the format allows, round by round ---------------------------------------------------
//
// scan_round_lines reads every line of a chunk of JSON Lines (whole lines, no byte order mark: the caller
// takes it off) and marks each round read or left (to the general path, which gives its answer or its
// error: the reader never says what is wrong). A read round is an object with
// - "players": 2 to max_players objects of "front", "middle" and "back", or "cards" (13, in row order)
//   with an optional "declare_natural" (true or false); an optional "name", unique in the round beside the
//   default names; optional "surrender" and "fantasyland" (true or false);
// - optionally "id": an integer within int64, or a string;
// - optionally "rules": any JSON value, its bytes kept once per distinct spelling in `rules`, for the
//   caller to resolve by the general rules reader;
// - optionally "stakes" (a P x P list of integers, or null), "banker" (a player's name, a seat or null),
//   "bets" (with a banker: P integers 1..kMaxBet, or null), and the metadata keys "expected", "tags" and
//   "note" (any JSON, never read).
// Strings (ids, names) may hold escapes and UTF-8 but no lone surrogate; a name needs one printable ASCII
// byte other than a space (so that the general reader too finds it not blank), and with `ascii_output` an
// id's value must be ASCII. No key twice, the line valid UTF-8, each row as above or with the jokers X1 and
// X2 (codes 52 and 53; a row writing the joker symbol is left, its meaning depends on the whole hand). The
// values the core checks (the cards against the rules' pack: a card twice, a joker; stakes, surrender and
// fantasyland under the rules) are checked when the round is settled. Everything else is left.
struct ScannedRound {
  std::size_t line = 0;   // 0-based line number in the chunk
  std::size_t begin = 0;  // the line's bytes [begin, end) in the chunk, without its LF
  std::size_t end = 0;
  bool read = false;      // false: left to the general path (nothing below is set)
  int players = 0;
  int rules = -1;         // index into RoundScan::rules; -1: the round names no rules (or they are ignored)
  RoundLineId id;         // kPosition: `value` is the round's 1-based position in the whole file
  // Each player's name as the bytes of the text (printable ASCII, no escape), or with name_decoded[p] its
  // value (UTF-8, escapes undone) in RoundScan::strings; named[p] false: the default name P1, P2, ...
  std::size_t name_begin[kMaxPlayers] = {};
  std::size_t name_length[kMaxPlayers] = {};
  bool named[kMaxPlayers] = {};
  bool name_decoded[kMaxPlayers] = {};
  std::size_t cards = 0;  // offset into RoundScan::cards of players x 13 codes (front 3, middle 5, back 5)
  // Per-round inputs (BatchInputs): a bit per seat, the banker's seat (-1: none), and offsets into
  // RoundScan::stakes (players x players) and RoundScan::bets (players), kNone when absent.
  std::uint8_t declared = 0;
  std::uint8_t surrendered = 0;
  std::uint8_t fantasyland = 0;
  std::int64_t banker = -1;
  std::size_t stakes = kNone;
  std::size_t bets = kNone;
  static constexpr std::size_t kNone = static_cast<std::size_t>(-1);

  // Whether the round gives any per-round input.
  bool has_inputs() const noexcept {
    return stakes != kNone || bets != kNone || banker >= 0 || declared != 0 || surrendered != 0 || fantasyland != 0;
  }

  // The name player `seat` goes by: its own (from the chunk's `text`, or decoded in RoundScan::`strings`),
  // else P1, P2, ... written into `default_name` (room for 2).
  std::string_view name(std::string_view text, std::string_view strings, int seat, char* default_name) const noexcept {
    if (named[seat]) return (name_decoded[seat] ? strings : text).substr(name_begin[seat], name_length[seat]);
    default_name[0] = 'P';
    default_name[1] = static_cast<char>('1' + seat);
    return std::string_view(default_name, 2);
  }
};

struct RoundScan {
  std::vector<ScannedRound> rounds;  // one per non-blank line, in order
  std::vector<std::uint8_t> cards;
  std::vector<std::int64_t> stakes;
  std::vector<std::int64_t> bets;
  std::string strings;  // the values of ids and names given with escapes or bytes beyond ASCII
  // The distinct "rules" values, each as its bytes [first, first + second) in the chunk.
  std::vector<std::pair<std::size_t, std::size_t>> rules;
  std::size_t line_feeds = 0;  // in the chunk: where the next chunk's line numbers start
};

// Reads every line of `text` into `out`. `first_position`: the 1-based position of the chunk's first
// round in its file (ids default to it); `read_rules`: false when every round's rules are overridden
// (the "rules" value is then only checked as JSON). Allocates per chunk and per distinct rules value.
void scan_round_lines(std::string_view text, std::int64_t first_position, int max_players, bool read_rules,
                      bool ascii_output, RoundScan* out);

// Settles the read rounds of `scan` and writes their net lines (as write_net_lines; a decoded id as
// Python's json.dumps writes it without ensure_ascii) into `out` in order; `ends[r]` is where round r's line ends in `out` (a left round writes nothing). `rules[k]`: the
// rules of scan.rules[k], null when they could not be resolved; `fallback`: the rules of a round that
// names none. A round whose rules are null, or that the core rejects, is marked left in `scan` for the
// general path. Rounds are settled in groups of one player count and one rules,
// each on `parallel`'s threads: the bytes do not depend on the thread count.
void settle_scanned_net(std::string_view text, RoundScan* scan, const std::vector<const RulesSpec*>& rules,
                        const RulesSpec& fallback, const Parallel& parallel, std::string* out,
                        std::vector<std::size_t>* ends);

// The read rounds of a scan as the full-output writer's columns (RoundOutputBatch) and which scanned round
// each one is; kept by a caller that writes many chunks, so that it allocates only while chunks grow.
struct ScannedColumns {
  std::vector<std::size_t> round_of;  // batch index -> index into RoundScan::rounds
  std::vector<std::uint32_t> rules_index;
  std::vector<std::uint8_t> players, cards, declared, surrendered, fantasyland, has_stakes, has_bets, id_is_json;
  std::vector<std::int64_t> stakes, banker, bets;
  std::string text;
  std::vector<std::size_t> offsets{0};
  bool any_surrender = false, any_fantasyland = false, any_banker = false;
  std::vector<std::size_t> written;  // where each round's output ends
  std::vector<std::uint8_t> settled;  // whether it settled

  void clear();
  // Round `r` of `scan` (read from `chunk`), under the rules at `rules_at`.
  void add(std::string_view chunk, const RoundScan& scan, std::size_t r, std::uint32_t rules_at);
  RoundOutputBatch batch(const std::vector<OutputRules>& rules) const;
};

// The full output of the read rounds of `scan` (docs/JSON_FORMAT.md "Output", the bytes write_round_outputs
// gives for the same rounds) into `out` in order, on `parallel`'s threads (the bytes do not depend on the
// thread count); `ends[r]` is where round r's output ends in `out` (a left round writes nothing).
// `rules[k]`: the output rules of scan.rules[k], null when they could not be resolved; `fallback`: those
// of a round that names none. A round whose rules are null, or that the core does not settle, is marked
// left in `scan` for the general path.
void write_scanned_full(std::string_view text, RoundScan* scan, const std::vector<const OutputRules*>& rules,
                        const OutputRules& fallback, const RoundOutputFormat& format, const Parallel& parallel,
                        std::string* out, std::vector<std::size_t>* ends, ScannedColumns* columns);

}  // namespace chinese_poker
