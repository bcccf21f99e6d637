// The full output of settled rounds (docs/JSON_FORMAT.md, "Output"), written by the core: each round is
// settled by settle_round and written as the JSON text the Python writer gives (formats/round_settle.py
// round_output, formats/output.py settlement_dict, dumped compact or with indent 2 as an item of a list),
// byte for byte. The input is plain columns, so that any reader (the general Python one, a C++ one) can
// fill them: per round its rules (an index into distinct rules, each with its output text rendered once),
// player count, id and names, cards, and the optional per-round inputs.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "chinese_poker/evaluate.hpp"
#include "chinese_poker/parallel.hpp"
#include "chinese_poker/rules.hpp"
#include "chinese_poker/settle.hpp"

namespace chinese_poker {

// What one distinct rules put into each of its rounds' output, rendered once by the caller.
struct OutputRules {
  const RulesSpec* spec = nullptr;
  // The JSON value of "rules" (a preset name or the rules object), as the output's dump settings write it
  // (indented mode: already indented for its place, a member of a round that is an item of a list).
  std::string_view rules_json;
  std::string_view digest;         // the "rules_digest" text (hex, no quotes)
  bool fantasyland_cards = false;  // rules.fantasyland is not "off": each player carries fantasyland_cards
  bool ace_units = false;          // ace_basis "table": each player carries ace_units
  bool jokers = false;             // rules with jokers: each player carries "jokers", a row's text what they became
  bool extended = false;           // a real-table settlement knob in use: every pair carries the extended fields
};

// OutputRules with their rules and texts held, for a caller that keeps them across calls.
struct HeldOutputRules {
  RulesSpec spec;
  std::string rules_json;
  std::string digest;
  OutputRules flags;  // the flags; its pointers and views are set by view()

  OutputRules view() const {
    OutputRules rules = flags;
    rules.spec = &spec;
    rules.rules_json = rules_json;
    rules.digest = digest;
    return rules;
  }
};

// A batch of rounds as columns. `P` is a round's player count; the per-player columns hold the players of
// every round one after the other (sum of P entries), the stakes a P x P matrix per round that has them.
struct RoundOutputBatch {
  std::size_t rounds = 0;
  const OutputRules* rules = nullptr;       // the distinct rules
  std::size_t num_rules = 0;
  const std::uint32_t* rules_index = nullptr;  // rounds: which rules
  const std::uint8_t* players = nullptr;    // rounds: P, 2..6
  const std::uint8_t* cards = nullptr;      // sum of 13 P codes: each player's 13 as Hand.cards holds them
  const std::uint8_t* declared = nullptr;   // sum of P, nonzero: a declared natural
  const std::uint8_t* surrendered = nullptr;  // sum of P (null: nobody)
  const std::uint8_t* fantasyland = nullptr;  // sum of P (null: nobody)
  const std::uint8_t* has_stakes = nullptr;   // rounds, nonzero: the round has a stakes matrix (null: none has)
  const std::int64_t* stakes = nullptr;     // one P x P matrix per round with stakes, in round order
  const std::int64_t* banker = nullptr;     // rounds: the banker's seat, -1 none (null: no banker anywhere)
  const std::uint8_t* has_bets = nullptr;   // rounds, nonzero: the round gives bets (null: none does)
  const std::int64_t* bets = nullptr;       // P per round with bets, in round order
  // The ids and names as text: for round r, string k (k = 0: its id, k = 1..P: its players' names) is
  // text[offsets[s + k] .. offsets[s + k + 1]) with s = sum over earlier rounds of (P + 1). UTF-8, where a
  // lone surrogate (which a Python str may hold) is its 3-byte form (CESU/"surrogatepass").
  std::string_view text;
  const std::size_t* offsets = nullptr;     // sum of (P + 1), plus one
  const std::uint8_t* id_is_json = nullptr;  // rounds, nonzero: the id text is JSON written as it is (an integer)
};

// How the rounds are written.
struct RoundOutputFormat {
  std::string_view engine_version;  // the "engine" object's "version"
  bool ascii_only = false;          // escape every non-ASCII character (json.dumps ensure_ascii)
  // false: each round compact on one line, then "\n". true: each round indented by 2 as an item of a JSON
  // list (json.dumps(list, indent=2)): ",\n  " then the round; the caller writes the list's brackets
  // and drops the first comma.
  bool indented = false;
};

// Where writing stopped: `next` is the first round not written (`rounds` when all were); when it is less,
// `error` is why that round did not settle (settle_round's error; kBadPlayerCount for a P outside 2..6 or a
// rules index past num_rules).
struct RoundOutputStatus {
  std::size_t next = 0;
  SettleError error;
};

// Settles rounds start, start + 1, ... of `batch` and appends their output to `out`, stopping before the
// first round that does not settle. Allocates only as `out` grows.
[[nodiscard]] RoundOutputStatus write_round_outputs(const RoundOutputBatch& batch, std::size_t start,
                                                    const RoundOutputFormat& format, std::string* out);

// Settles every round of `batch` and appends the output of each one that settles to `out`, in order, on
// `parallel`'s threads (the bytes do not depend on the thread count). ends[r]: where round r's output ends,
// counted from out's size at the call (for a round that does not settle, where the one before it ended);
// settled[r]: 1 when it settled, 0 when it did not (its error is settle_round's, left to the caller to
// find again). Allocates as `out` grows, and a buffer per 512 rounds when more than one thread works.
void write_each_round_output(const RoundOutputBatch& batch, const RoundOutputFormat& format,
                             const Parallel& parallel, std::string* out, std::size_t* ends, std::uint8_t* settled);

// Appends the readable text of a valid row strength (evaluation.describe): "Pair of queens, ace kicker".
void append_strength_text(Strength strength, std::string* out);

// Appends `text` (UTF-8, lone surrogates in their 3-byte form) as a JSON string, as json.dumps writes it
// (with ensure_ascii `ascii_only`) with every lone surrogate as its \uXXXX escape.
void append_json_string(std::string_view text, bool ascii_only, std::string* out);

}  // namespace chinese_poker
