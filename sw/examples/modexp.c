// SPDX-License-Identifier: Apache-2.0
//
// base^exp mod N on mm_modexp_axil from C, against the generated header
// sw/include/mm_modexp_regs.h (PeakRDL-cheader, from rdl/mm_modexp_regs.rdl).
// Operands are arrays of 32-bit words, least significant first, of
// INFO.WORDS words each; R^2 mod N comes from the host (once per key, like
// OpenSSL's BN_MONT_CTX; montmul.engine.r2_mod computes it for a core).
//
// Bare metal: mm_modexp_open((void *)BASE_ADDRESS).  Linux: map the block
// with mmap() on /dev/mem or a UIO device and pass the mapping.
//   cc -I sw/include -c sw/examples/modexp.c
#include <stddef.h>
#include <stdint.h>

#include "mm_modexp_regs.h"

#define FIELD_GET(reg, field, v) \
  (((v) & MM_MODEXP_REGS__##reg##__##field##_bm) >> MM_MODEXP_REGS__##reg##__##field##_bp)
#define FIELD_SET(reg, field, v) \
  (((uint32_t)(v) << MM_MODEXP_REGS__##reg##__##field##_bp) & MM_MODEXP_REGS__##reg##__##field##_bm)

enum mm_operand { MM_BASE = 0, MM_EXP = 1, MM_N = 2, MM_R2 = 3, MM_RESULT = 4 };

typedef struct {
  volatile mm_modexp_regs_t *regs;
  uint32_t width;  // modulus width k of the hardware
  uint32_t words;  // 32-bit words per operand
} mm_modexp_t;

// 0 on success, -1 if the ID register does not read 'MMX1'.
int mm_modexp_open(mm_modexp_t *dev, void *base) {
  dev->regs = (volatile mm_modexp_regs_t *)base;
  if (dev->regs->ID != MM_MODEXP_REGS__ID__MAGIC_reset) return -1;
  uint32_t info = dev->regs->INFO;
  dev->width = FIELD_GET(INFO, WIDTH, info);
  dev->words = FIELD_GET(INFO, WORDS, info);
  return 0;
}

static void write_operand(mm_modexp_t *dev, enum mm_operand op, const uint32_t *w) {
  dev->regs->WSEL = FIELD_SET(WSEL, OPERAND, op);  // index 0; each DATA write advances it
  for (uint32_t i = 0; i < dev->words; i++) dev->regs->DATA = w[i];
}

static void read_operand(mm_modexp_t *dev, enum mm_operand op, uint32_t *w) {
  dev->regs->WSEL = FIELD_SET(WSEL, OPERAND, op);
  for (uint32_t i = 0; i < dev->words; i++) w[i] = dev->regs->DATA;
}

// result = base^exp mod n.  exp_len: the exponent length in bits (for a
// secret exponent the key's fixed length, with ladder = 1 on a constant-time
// core).  Returns 0, or -1 if the engine rejected the request (STATUS.ERR).
// *cycles receives the engine's latency.
int mm_modexp_run(mm_modexp_t *dev, const uint32_t *base, const uint32_t *exp, uint32_t exp_len,
                  const uint32_t *n, const uint32_t *r2, int ladder, uint32_t *result, uint32_t *cycles) {
  write_operand(dev, MM_BASE, base);
  write_operand(dev, MM_EXP, exp);
  write_operand(dev, MM_N, n);
  write_operand(dev, MM_R2, r2);
  dev->regs->EXP_LEN = FIELD_SET(EXP_LEN, LEN, exp_len);
  dev->regs->CTRL = FIELD_SET(CTRL, START, 1) | FIELD_SET(CTRL, LADDER, ladder != 0);
  uint32_t status;
  do {  // or enable CTRL.IRQ_EN and wait for irq_o
    status = dev->regs->STATUS;
  } while (FIELD_GET(STATUS, BUSY, status) || !FIELD_GET(STATUS, DONE, status));
  if (cycles != NULL) *cycles = dev->regs->CYCLES;
  read_operand(dev, MM_RESULT, result);
  dev->regs->STATUS = MM_MODEXP_REGS__STATUS__DONE_bm | MM_MODEXP_REGS__STATUS__ERR_bm;  // write 1 to clear
  return FIELD_GET(STATUS, ERR, status) ? -1 : 0;
}
