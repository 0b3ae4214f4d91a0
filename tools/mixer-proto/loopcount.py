#!/usr/bin/env python3
"""Static count of instructions in the hot loop (largest backward-jump loop) of each argmax kernel."""
import re, subprocess, sys
binp = sys.argv[1] if len(sys.argv) > 1 else "target/release/proto_mixer"
syms = subprocess.run(["nm", "-C", binp], capture_output=True, text=True).stdout
for line in syms.splitlines():
    m = re.match(r"([0-9a-f]+) T proto_mixer::(avx2|avx512)::argmax_(\w+)$", line)
    if not m: continue
    addr, isa, mixer = int(m.group(1), 16), m.group(2), m.group(3)
    dis = subprocess.run(["objdump", "-d", "--no-show-raw-insn", f"--start-address={addr}", f"--stop-address={addr+16384}", binp],
                         capture_output=True, text=True).stdout
    ins = []
    for l in dis.splitlines():
        mm = re.match(r"\s+([0-9a-f]+):\s+(\S+)\s*(.*)", l)
        if mm: ins.append((int(mm.group(1), 16), mm.group(2), mm.group(3)))
        if mm and mm.group(2).startswith("ret"): break
    best = None
    for i, (a, op, args) in enumerate(ins):
        t = re.match(r"([0-9a-f]+) <", args)
        if op.startswith("j") and t and int(t.group(1), 16) < a:
            body = [x for x in ins if int(t.group(1), 16) <= x[0] <= a]
            if best is None or len(body) > len(best): best = body
    if best is None: print(isa, mixer, "no loop found"); continue
    lanes = 8 if isa == "avx2" else 16  # scores per loop iteration (2 accumulators)
    muls = sum(1 for x in best if "mul" in x[1])
    print(f"{isa:6} {mixer:9} loop: {len(best):3} instr / {lanes} scores = {len(best)/lanes:.2f} instr/score ({muls} multiply instr)")
