// SPDX-License-Identifier: Apache-2.0
//
// Shared macros.  MM_FATAL stops a build with an illegal parameter: an
// elaboration-time $fatal in a generate block where the tool supports it
// (Verilator, Yosys), and a time-zero $fatal under Icarus Verilog 11, which
// has no elaboration-time system tasks.
`ifndef MM_MACROS_SVH
`define MM_MACROS_SVH
`ifdef __ICARUS__
`define MM_FATAL(msg) initial $fatal(1, msg);
`else
`define MM_FATAL(msg) $fatal(1, msg);
`endif  // __ICARUS__
`endif  // MM_MACROS_SVH
