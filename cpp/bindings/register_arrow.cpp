// Settling a batch of rounds laid out as Arrow lays a list<fixed_size_list<uint8>[13]> column: every seat's
// 13 codes one after the other (the values buffer, read in place) and per round the offset of its first
// seat. Rounds of several player counts and rules are grouped in one pass (each group's rows collected a
// block at a time), each block's cards and per-round inputs gathered into contiguous arrays for the batch
// kernel, and the nets written back at each round's own seats, all with the GIL released.
#include <pybind11/stl.h>

#include <algorithm>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include "chinese_poker/settle.hpp"
#include "register.hpp"

namespace py = pybind11;

namespace chinese_poker::bindings {

namespace {

// One key per (rules, player count): rules index * kKeyStride + players, groups settled in key order.
constexpr std::int64_t kKeyStride = 8;

struct GroupedFailure {
  SettleError error;
  std::size_t rules = 0;
  int players = 0;
};

// The optional per-round input columns in the batch's own layout (nullptr: not given): one value per seat
// (declared, surrendered, fantasyland as bytes, nonzero true; bets), one per round (banker), and per round a
// P x P matrix row-major, the rounds one after the other (stakes).
struct SeatInputs {
  const std::int64_t* stakes = nullptr;
  const std::uint8_t* declared = nullptr;
  const std::uint8_t* surrendered = nullptr;
  const std::uint8_t* fantasyland = nullptr;
  const std::int64_t* banker = nullptr;
  const std::int64_t* bets = nullptr;

  bool any() const {
    return stakes != nullptr || declared != nullptr || surrendered != nullptr || fantasyland != nullptr ||
           banker != nullptr || bets != nullptr;
  }
};

// Rounds per kernel call (times the threads): a group is gathered a block at a time, so the block and its
// nets stay in cache between the gather, the kernel and the write back.
constexpr std::size_t kBlockRounds = 8192;

// Copies `Width` values a round from each round's `start` into consecutive slots of `block` (a
// compile-time size: plain moves, not a call per round).
template <std::size_t Width, class T, class Start>
void gather_block(const T* values, Start start, const std::size_t* rows, std::size_t size, T* block) {
  for (std::size_t g = 0; g < size; ++g) {
    std::memcpy(block + g * Width, values + start(rows[g]), Width * sizeof(T));
  }
}

template <int Players>
void scatter_nets(const std::int64_t* block_net, const std::int64_t* offsets, const std::size_t* rows,
                  std::size_t size, std::int64_t* net) {
  constexpr std::size_t bytes = static_cast<std::size_t>(Players) * sizeof(std::int64_t);
  for (std::size_t g = 0; g < size; ++g) std::memcpy(net + offsets[rows[g]], block_net + g * Players, bytes);
}

template <class Run>
void by_players(int players, Run run) {
  switch (players) {
    case 2: run(std::integral_constant<int, 2>{}); break;
    case 3: run(std::integral_constant<int, 3>{}); break;
    case 4: run(std::integral_constant<int, 4>{}); break;
    case 5: run(std::integral_constant<int, 5>{}); break;
    default: run(std::integral_constant<int, 6>{}); break;
  }
}

// A group's block of inputs: the kernel's (rounds, P[, P]) arrays, each allocated only when its column is.
struct InputBlocks {
  std::vector<std::int64_t> stakes, banker, bets;
  std::vector<std::uint8_t> declared, surrendered, fantasyland;

  InputBlocks(const SeatInputs& given, std::size_t rounds) {
    const std::size_t seats = rounds * kMaxPlayers;
    if (given.stakes != nullptr) stakes.resize(seats * kMaxPlayers);
    if (given.declared != nullptr) declared.resize(seats);
    if (given.surrendered != nullptr) surrendered.resize(seats);
    if (given.fantasyland != nullptr) fantasyland.resize(seats);
    if (given.banker != nullptr) banker.resize(rounds);
    if (given.bets != nullptr) bets.resize(seats);
  }

  // Gathers the given columns of `size` rounds (their batch rows `rows`) and points `inputs` at them.
  template <int Players>
  void gather(const SeatInputs& given, const std::int64_t* offsets, const std::int64_t* squares,
              const std::size_t* rows, std::size_t size, BatchInputs* inputs) {
    constexpr auto width = static_cast<std::size_t>(Players);
    const auto seat = [offsets](std::size_t r) { return offsets[r]; };
    const auto flags = [&](const std::uint8_t* values, std::vector<std::uint8_t>& block) -> const std::uint8_t* {
      if (values == nullptr) return nullptr;
      gather_block<width>(values, seat, rows, size, block.data());
      return block.data();
    };
    inputs->declared = flags(given.declared, declared);
    inputs->surrendered = flags(given.surrendered, surrendered);
    inputs->fantasyland = flags(given.fantasyland, fantasyland);
    if (given.bets != nullptr) {
      gather_block<width>(given.bets, seat, rows, size, bets.data());
      inputs->bets = bets.data();
    }
    if (given.banker != nullptr) {
      gather_block<1>(given.banker, [](std::size_t r) { return r; }, rows, size, banker.data());
      inputs->banker = banker.data();
    }
    if (given.stakes != nullptr) {
      gather_block<width * width>(given.stakes, [squares](std::size_t r) { return squares[r]; }, rows, size,
                                  stakes.data());
      inputs->stakes = stakes.data();
    }
  }
};

// The kernel's inputs of a batch that is one group: the columns as they are, already (R, P[, P]).
BatchInputs whole_inputs(const SeatInputs& given) {
  BatchInputs inputs;
  inputs.stakes = given.stakes;
  inputs.declared = given.declared;
  inputs.surrendered = given.surrendered;
  inputs.fantasyland = given.fantasyland;
  inputs.banker = given.banker;
  inputs.bets = given.bets;
  return inputs;
}

// One group's block of rounds at a time: gathered from the batch, settled by the kernel, the nets written
// back at each round's own seats. The buffers are shared by every group (one block is settled at a time).
class BlockSettler {
 public:
  BlockSettler(const std::uint8_t* codes, const std::int64_t* offsets, std::size_t rounds, const SeatInputs& given,
               const Parallel& parallel, std::size_t block_rounds, std::int64_t* net)
      : codes_(codes), offsets_(offsets), given_(given), parallel_(parallel), net_(net),
        block_(block_rounds * kMaxPlayers * 13), block_net_(block_rounds * kMaxPlayers),
        inputs_(given, given.any() ? block_rounds : 0) {
    // Where each round's stakes matrix begins: the sum of the squares of the player counts before it.
    if (given.stakes == nullptr) return;
    squares_.resize(rounds);
    for (std::size_t r = 0, at = 0; r < rounds; ++r) {
      squares_[r] = static_cast<std::int64_t>(at);
      const auto players = static_cast<std::size_t>(offsets[r + 1] - offsets[r]);
      at += players * players;
    }
  }

  // Settles the rounds `rows` (ascending batch rows, all of `players` seats under `spec`); on bad input
  // returns the error of the lowest bad one, its round and card item renumbered as the batch's row.
  SettleError settle(const std::size_t* rows, std::size_t size, int players, const RulesSpec& spec) {
    BatchInputs inputs;
    by_players(players, [&](auto p) {
      constexpr int P = decltype(p)::value;
      gather_block<static_cast<std::size_t>(P) * 13>(
          codes_, [this](std::size_t r) { return offsets_[r] * 13; }, rows, size, block_.data());
      if (given_.any()) inputs_.gather<P>(given_, offsets_, squares_.data(), rows, size, &inputs);
    });
    BatchOutputs outputs;
    outputs.net = block_net_.data();
    SettleError error = settle_batch(block_.data(), size, players, spec, inputs, outputs, parallel_);
    if (error) {
      if (error.round >= 0) error.round = static_cast<std::int64_t>(rows[error.round]);
      if (error.cards.item >= 0) error.cards.item = static_cast<std::int64_t>(rows[error.cards.item]);
      return error;
    }
    by_players(players, [&](auto p) { scatter_nets<decltype(p)::value>(block_net_.data(), offsets_, rows, size, net_); });
    return error;
  }

 private:
  const std::uint8_t* codes_;
  const std::int64_t* offsets_;
  const SeatInputs& given_;
  const Parallel& parallel_;
  std::int64_t* net_;
  std::vector<std::uint8_t> block_;
  std::vector<std::int64_t> block_net_;
  InputBlocks inputs_;
  std::vector<std::int64_t> squares_;
};

// Settles every round; on bad input returns the error of the lowest bad round of the first group (in key
// order) holding one, its round and card item renumbered as the batch's row. `uniform`: every round has
// the same player count and rules (the batch is one group).
bool settle_grouped(const std::uint8_t* codes, const std::int64_t* offsets, std::size_t rounds,
                    const std::int64_t* rules_index, const std::vector<RulesSpec>& rules, const SeatInputs& given,
                    bool uniform, const Parallel& parallel, std::int64_t* net, GroupedFailure* failure) {
  const auto key_of = [&](std::size_t r) {
    const std::int64_t index = rules_index == nullptr ? 0 : rules_index[r];
    return static_cast<std::size_t>(index * kKeyStride + (offsets[r + 1] - offsets[r]));
  };
  if (uniform) {
    // One group: the values buffer is already the kernel's (R, P, 13) block, and its nets the output.
    const std::size_t key = key_of(0);
    const int players = static_cast<int>(key % kKeyStride);
    const std::size_t which = key / kKeyStride;
    BatchOutputs outputs;
    outputs.net = net;
    const SettleError error = settle_batch(codes, rounds, players, rules[which], whole_inputs(given), outputs, parallel);
    if (!error) return true;
    *failure = GroupedFailure{error, which, players};
    return false;
  }
  // One pass over the rounds, no sort: each group's rows are collected in ascending order and a full block
  // settled at once. A group's first error is its lowest bad round (its blocks ascend); the error kept is
  // that of the lowest group holding one, as if the groups were settled one after the other, so a group
  // after it needs no more settling.
  const std::size_t keys = rules.size() * static_cast<std::size_t>(kKeyStride);
  const std::size_t threads = parallel.threads == 0 ? available_threads() : parallel.threads;
  // No larger than the batch: a small batch (an engine's default is some thousands of rows) would
  // otherwise pay for zeroing buffers it never fills.
  const std::size_t block_rounds = std::min(kBlockRounds * threads, rounds);
  BlockSettler settler(codes, offsets, rounds, given, parallel, block_rounds, net);
  std::vector<std::vector<std::size_t>> pending(keys);
  std::size_t failed = keys;  // the lowest key holding an error (keys: none yet)
  const auto flush = [&](std::size_t key) {
    std::vector<std::size_t>& rows = pending[key];
    if (rows.empty() || key >= failed) return;
    const int players = static_cast<int>(key % kKeyStride);
    const SettleError error = settler.settle(rows.data(), rows.size(), players, rules[key / kKeyStride]);
    rows.clear();
    if (!error) return;
    failed = key;
    *failure = GroupedFailure{error, key / kKeyStride, players};
  };
  for (std::size_t r = 0; r < rounds; ++r) {
    const std::size_t key = key_of(r);
    std::vector<std::size_t>& rows = pending[key];
    if (rows.capacity() == 0) rows.reserve(block_rounds);
    rows.push_back(r);
    if (rows.size() == block_rounds) flush(key);
  }
  for (std::size_t key = 0; key < keys; ++key) flush(key);
  return failed == keys;
}

// A per-round input argument: None, or a C-contiguous array of `dtype` and `length` values; its data.
template <class T>
const T* input_column(const py::object& object, const char* name, const py::dtype& dtype, std::size_t length,
                      const char* what) {
  if (object.is_none()) return nullptr;
  const auto size = static_cast<py::ssize_t>(length);
  require_array(object, name, dtype, {size}, std::string("(") + what + ",) = (" + std::to_string(length) + ",)");
  return static_cast<const T*>(py::reinterpret_borrow<py::array>(object).data());
}

// Raises the error of the failed round (a batch row), its stakes, bets and banker read where the batch
// holds them.
[[noreturn]] void raise_failure(const GroupedFailure& failure, const std::vector<RulesSpec>& rules,
                                const SeatInputs& given, const std::int64_t* offsets) {
  const std::int64_t row = failure.error.round;
  const std::int64_t* stakes = nullptr;
  const std::int64_t* bets = nullptr;
  const std::int64_t* banker = nullptr;
  if (row >= 0) {
    const auto r = static_cast<std::size_t>(row);
    if (given.stakes != nullptr) {
      std::size_t at = 0;
      for (std::size_t q = 0; q < r; ++q) {
        const auto players = static_cast<std::size_t>(offsets[q + 1] - offsets[q]);
        at += players * players;
      }
      stakes = given.stakes + at;
    }
    if (given.bets != nullptr) bets = given.bets + offsets[r];
    if (given.banker != nullptr) banker = given.banker + r;
  }
  raise_settle_error(failure.error, rules[failure.rules], stakes, failure.players, bets, banker);
}

}  // namespace

void register_arrow(py::module_& m) {
  m.def(
      "settle_seats",
      [](const py::object& codes_object, const py::object& offsets_object, const py::object& rules_index_object,
         const std::vector<RulesSpec>& rules, const py::object& threads, const py::object& stakes_object,
         const py::object& declared_object, const py::object& surrender_object, const py::object& banker_object,
         const py::object& bets_object, const py::object& fantasyland_object) {
        if (rules.empty()) throw py::value_error("settle_seats needs at least one rules");
        for (const RulesSpec& spec : rules) check_rules(spec);
        const py::array_t<std::uint8_t> codes = require_card_array(codes_object, "codes", 2, {13});
        const auto seats = static_cast<std::size_t>(codes.shape(0));
        if (!py::isinstance<py::array>(offsets_object) || py::reinterpret_borrow<py::array>(offsets_object).ndim() != 1) {
          throw py::type_error("offsets must be a 1-D int64 numpy array");
        }
        const py::ssize_t bounds = py::reinterpret_borrow<py::array>(offsets_object).shape(0);
        if (bounds < 1) throw py::value_error("offsets must hold at least one value (R + 1 for R rounds)");
        require_array(offsets_object, "offsets", py::dtype::of<std::int64_t>(), {bounds}, "(R + 1,)");
        const auto rounds = static_cast<std::size_t>(bounds - 1);
        const auto* offsets = static_cast<const std::int64_t*>(py::reinterpret_borrow<py::array>(offsets_object).data());
        const std::int64_t* rules_index = nullptr;
        if (!rules_index_object.is_none()) {
          require_array(rules_index_object, "rules_index", py::dtype::of<std::int64_t>(),
                        {static_cast<py::ssize_t>(rounds)}, "(R,) = (" + std::to_string(rounds) + ",)");
          rules_index = static_cast<const std::int64_t*>(py::reinterpret_borrow<py::array>(rules_index_object).data());
        }
        const Parallel parallel = parallel_from(threads);
        // The layout is checked before any read: every round 2..6 seats inside the codes, every rules index
        // in the list, so no offset can reach outside the buffers.
        if (offsets[0] != 0 || offsets[rounds] != static_cast<std::int64_t>(seats)) {
          throw py::value_error("offsets must run from 0 to the number of seats (" + std::to_string(seats) + "), got " +
                                std::to_string(offsets[0]) + " to " + std::to_string(offsets[rounds]));
        }
        std::size_t squares = 0;
        bool uniform = true;  // one player count and one rules index throughout
        for (std::size_t r = 0; r < rounds; ++r) {
          const std::int64_t players = offsets[r + 1] - offsets[r];
          if (players < kMinPlayers || players > kMaxPlayers) {
            throw py::value_error("round " + std::to_string(r) + ": a round has 2 to 6 seats, got " +
                                  std::to_string(players));
          }
          if (rules_index != nullptr && (rules_index[r] < 0 || rules_index[r] >= static_cast<std::int64_t>(rules.size()))) {
            throw py::value_error("round " + std::to_string(r) + ": rules index " + std::to_string(rules_index[r]) +
                                  " is not in 0.." + std::to_string(rules.size() - 1));
          }
          squares += static_cast<std::size_t>(players * players);
          if (r > 0 && (players != offsets[1] - offsets[0] || (rules_index != nullptr && rules_index[r] != rules_index[0]))) {
            uniform = false;
          }
        }
        // The inputs' lengths follow from the layout: one value per seat, per round, or per round P x P.
        SeatInputs given;
        const py::dtype flag = py::dtype::of<bool>(), integer = py::dtype::of<std::int64_t>();
        given.stakes = input_column<std::int64_t>(stakes_object, "stakes", integer, squares, "sum of P x P");
        // Bools read as bytes (nonzero: true): a bool array viewed from other bytes is still read without UB.
        given.declared = input_column<std::uint8_t>(declared_object, "declared", flag, seats, "S");
        given.surrendered = input_column<std::uint8_t>(surrender_object, "surrender", flag, seats, "S");
        given.fantasyland = input_column<std::uint8_t>(fantasyland_object, "fantasyland", flag, seats, "S");
        given.banker = input_column<std::int64_t>(banker_object, "banker", integer, rounds, "R");
        given.bets = input_column<std::int64_t>(bets_object, "bets", integer, seats, "S");
        if (given.bets != nullptr && given.banker == nullptr) {
          throw py::value_error("bets are given but no banker: bets need banker rounds");
        }
        py::array_t<std::int64_t> net(static_cast<py::ssize_t>(seats));
        GroupedFailure failure;
        bool ok = true;
        if (rounds > 0) {
          py::gil_scoped_release release;
          ok = settle_grouped(codes.data(), offsets, rounds, rules_index, rules, given, uniform, parallel,
                              net.mutable_data(), &failure);
        }
        if (!ok) raise_failure(failure, rules, given, offsets);
        return net;
      },
      py::arg("codes"), py::arg("offsets"), py::arg("rules_index"), py::arg("rules"), py::arg("threads") = 1,
      py::kw_only(), py::arg("stakes") = py::none(), py::arg("declared") = py::none(),
      py::arg("surrender") = py::none(), py::arg("banker") = py::none(), py::arg("bets") = py::none(),
      py::arg("fantasyland") = py::none(),
      "Net units of R rounds in Arrow's list layout: codes (S, 13) uint8, every seat's front 3, middle 5 and\n"
      "back 5 (S seats in all, read in place); offsets (R + 1,) int64, round r's seats codes[offsets[r]:\n"
      "offsets[r + 1]] (2..6 of them); rules_index None or (R,) int64, each round's index into rules (a list\n"
      "of RulesSpec). The per-round inputs of settle_batch, each optional and laid as the cards: declared,\n"
      "surrender, fantasyland (S,) bool and bets (S,) int64, one per seat; banker (R,) int64 (-1: none);\n"
      "stakes int64, each round's P x P matrix row-major, the rounds one after the other. Returns (S,) int64,\n"
      "each seat's net at its own place. Rounds are grouped by rules and player count (groups in that order,\n"
      "the lowest key first); an error names the batch's row of the lowest bad round of the first group\n"
      "holding one. Releases the GIL; `threads` as settle_batch.");
}

}  // namespace chinese_poker::bindings
