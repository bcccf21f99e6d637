#include "register.hpp"

// No process-global state is written after import (the InputError type is created once, here), and every
// batch call releases the GIL around work on its own buffers: safe without the GIL.
PYBIND11_MODULE(_core, m, pybind11::mod_gil_not_used()) {
  m.doc() = "Compiled core of chinese_poker (private: use the chinese_poker package).";
  chinese_poker::bindings::register_errors(m);
  chinese_poker::bindings::register_cards(m);
  chinese_poker::bindings::register_evaluate(m);
  chinese_poker::bindings::register_rules(m);
  chinese_poker::bindings::register_settle(m);
  chinese_poker::bindings::register_arrange(m);
  // The output's types first: the round readers' signatures name them.
  chinese_poker::bindings::register_round_output(m);
  chinese_poker::bindings::register_round_lines(m);
  chinese_poker::bindings::register_fair(m);
  chinese_poker::bindings::register_ofc(m);
  chinese_poker::bindings::register_arrow(m);
}
