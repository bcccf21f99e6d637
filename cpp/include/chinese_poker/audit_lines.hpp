// The fast path of auditing a log of rounds (chinese_poker.audit, docs/FAIR.md): each JSON Lines line of
// the two common kinds is read, settled, its receipt's canonical bytes built and hashed, its deal redone,
// and everything compared, in the core. A line passes only when every check the general (Python) audit
// makes matches; any other line (a mismatch, a shape this reader does not take, bad JSON) is left to the
// general path, which names what differs. So this reader never reports a mismatch itself.
//
// The two kinds, on one line of printable ASCII (tab and CR as white space, no backslash):
// - an output round of `score --receipts` (it has "engine"): "receipt" with exactly the body keys of a
//   receipt of rules without jokers or fantasyland, every seat playing its setting (nobody declares or
//   surrenders), no banker, no bets, every stake 1; "rules" a preset name the caller listed; optional
//   "rules_digest", "net" and "pairs" (each with integer "units"); every other key's value only read as
//   JSON;
// - a compact replay: "rules" (a listed preset name), optional "id", "players" (2 to 4 objects with "front",
//   "middle", "back" and an optional "name") and "deal" with "commitment", "server_seed", "client_seeds"
//   and "nonce", and no other key.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "chinese_poker/rules.hpp"

namespace chinese_poker {

// One rule set the fast path takes: its preset name, its spec and its digest (64 lowercase hex digits).
// Only rules of one plain 52-card pack without fantasyland may be listed.
struct AuditRules {
  std::string name;
  RulesSpec spec;
  std::string digest;
};

struct AuditConfig {
  std::vector<AuditRules> rules;
  std::string engine_name, engine_version, receipt_format;  // printable ASCII without '"' or '\'
  std::string key;                                         // the receipts' HMAC key; empty: none
};

enum class AuditLine : std::uint8_t { kGeneral = 0, kMatches = 1, kBlank = 2 };

// One status per line of `text` (split at '\n'; a last line without '\n' counts, an empty text is one
// blank line): kBlank for a line of only ASCII white space, kMatches for a line of one of the two kinds
// whose every check matches, kGeneral for every other. Writes `out` (resized to the line count).
void audit_lines(std::string_view text, const AuditConfig& config, std::vector<std::uint8_t>* out);

}  // namespace chinese_poker
