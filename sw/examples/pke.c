// SPDX-License-Identifier: Apache-2.0
//
// Running a program on the public-key engine behind mm_pke_axil from C,
// against the generated header sw/include/mm_pke_regs.h (PeakRDL-cheader,
// from rdl/mm_pke_regs.rdl); docs/pke_axil.md.  The program and the banks'
// images come from the host's tooling: montmul.models.pke.rsa_crt_program
// and pke.encode give the 72-bit instruction words (here as three 32-bit
// words, least significant first), pke.host_images the bank words of a key
// and message, pke.layout where each region (the result: MQ of bank 0) is.
//
// Bare metal: mm_pke_open((void *)BASE_ADDRESS).  Linux: map the block with
// mmap() on /dev/mem or a UIO device and pass the mapping.
//   cc -I sw/include -c sw/examples/pke.c
#include <stddef.h>
#include <stdint.h>

#include "mm_pke_regs.h"

#define FIELD_GET(reg, field, v) \
  (((v) & MM_PKE_REGS__##reg##__##field##_bm) >> MM_PKE_REGS__##reg##__##field##_bp)
#define FIELD_SET(reg, field, v) \
  (((uint32_t)(v) << MM_PKE_REGS__##reg##__##field##_bp) & MM_PKE_REGS__##reg##__##field##_bm)

typedef struct {
  volatile mm_pke_regs_t *regs;
  uint32_t w;           // bits per bank word
  uint32_t prog_words;  // program memory size
  uint32_t bank_words;  // words per bank
} mm_pke_t;

// 0 on success, -1 if the ID register does not read 'MPK1'.
int mm_pke_open(mm_pke_t *dev, void *base) {
  dev->regs = (volatile mm_pke_regs_t *)base;
  if (dev->regs->ID != MM_PKE_REGS__ID__MAGIC_reset) return -1;
  uint32_t array = dev->regs->ARRAY, sizes = dev->regs->SIZES, memory = dev->regs->MEMORY;
  dev->w = FIELD_GET(ARRAY, W, array);
  dev->prog_words = FIELD_GET(SIZES, PROG_WORDS, sizes);
  dev->bank_words = FIELD_GET(MEMORY, BANK_WORDS, memory);
  return 0;
}

// Store n instruction words from address 0: words[i][0] holds bits 31..0,
// [1] bits 63..32, [2] bits 71..64.  -1 if the program does not fit.
int mm_pke_load_program(mm_pke_t *dev, const uint32_t (*words)[3], uint32_t n) {
  if (n > dev->prog_words) return -1;
  dev->regs->PADDR = 0;  // each PDATA2 write stores a word and advances PADDR
  for (uint32_t i = 0; i < n; i++) {
    dev->regs->PDATA0 = words[i][0];
    dev->regs->PDATA1 = words[i][1];
    dev->regs->PDATA2 = words[i][2];
  }
  return 0;
}

// n words of bank half from addr (each BDATA access advances BSEL.ADDR).
int mm_pke_write_bank(mm_pke_t *dev, uint32_t half, uint32_t addr, const uint32_t *words, uint32_t n) {
  if (addr + n > dev->bank_words) return -1;
  dev->regs->BSEL = FIELD_SET(BSEL, HALF, half) | FIELD_SET(BSEL, ADDR, addr);
  for (uint32_t i = 0; i < n; i++) dev->regs->BDATA = words[i];
  return 0;
}

int mm_pke_read_bank(mm_pke_t *dev, uint32_t half, uint32_t addr, uint32_t *words, uint32_t n) {
  if (addr + n > dev->bank_words) return -1;
  dev->regs->BSEL = FIELD_SET(BSEL, HALF, half) | FIELD_SET(BSEL, ADDR, addr);
  for (uint32_t i = 0; i < n; i++) words[i] = dev->regs->BDATA;
  return 0;
}

// Run the program in memory and wait for it.  Returns 0 after its HALT,
// the engine's error code (1 .. 11, STATUS.CODE) if it stopped on an error
// (then mm_pke_abort before the next run), or -1 if START was ignored.
// *cycles receives CYCLES.
int mm_pke_run(mm_pke_t *dev, uint32_t *cycles) {
  dev->regs->STATUS = MM_PKE_REGS__STATUS__DONE_bm | MM_PKE_REGS__STATUS__IGNORED_bm;  // write 1 to clear
  dev->regs->CTRL = FIELD_SET(CTRL, START, 1);
  uint32_t status;
  do {  // or enable CTRL.IRQ_EN and wait for irq_o
    status = dev->regs->STATUS;
    if (FIELD_GET(STATUS, IGNORED, status)) return -1;
  } while (!FIELD_GET(STATUS, DONE, status));
  if (cycles != NULL) *cycles = dev->regs->CYCLES;
  return FIELD_GET(STATUS, ERR, status) ? (int)FIELD_GET(STATUS, CODE, status) : 0;
}

// Reset the engine: stops a program, clears its error; memories kept.
void mm_pke_abort(mm_pke_t *dev) { dev->regs->CTRL = FIELD_SET(CTRL, ABORT, 1); }
