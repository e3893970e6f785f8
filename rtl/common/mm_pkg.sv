// SPDX-License-Identifier: Apache-2.0
//
// mm_pkg: the named constants that several modules share.  Plain localparams
// only (Icarus Verilog 11 handles packed structs in packages poorly).  It is
// the first file of every core's file list (montmul.cores.SHELL), so every
// design that reads a core has it.
package mm_pkg;

  // The legal modulus widths k of every core and engine: Width outside
  // [WidthMin, WidthMax] stops elaboration (the registry's montmul.cores.WIDTH
  // holds the same range; tests/test_cores.py checks that they agree).
  localparam int WidthMin = 3;
  localparam int WidthMax = 8192;

endpackage
