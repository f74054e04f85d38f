#!/usr/bin/env python3
"""Random polling with energy termination, outside Rust: a demonstration
implementation for `lbcheck check --impl` (docs/trace-format.md, docs/cli.md).

A discrete-event simulation of 001's asynchronous machine (001 Fig. 1): P PEs,
PE 0 starts with the whole workload; a busy PE works Δt units per slice and
at each poll between slices answers one queued request (a part split off
as docs/trace-format.md defines the workload's split, or a reject); an idle
PE asks a uniformly random other PE and waits for the reply. Termination by energy (003 §14.7.4): PE 0 starts with energy 1, a
work reply carries half of its sender's energy, a PE that runs out returns
all of its energy to PE 0, which announces when it is idle and holds 1, and
sends `terminate` to every PE. Messages take a latency uniform in a..b;
splitting costs T_split before the part leaves.

Workloads: `synthetic:size=N,...` (units 0..N, identity = index) and UTS
trees (`uts:default`, `uts:args=...`; SHA-1 nodes, identity = the first 8
bytes of the state, little-endian). Standard library only.

--bug plants a classic defect:
  lose-work   the server splits off a part and rejects the request (the part is lost)
  dup-work    the server sends a part but keeps working on it too
  ignore-requests  a busy PE never reads its requests (the requesters idle)
  slow        an idle PE that is rejected waits 20·(b + Δt) before asking again (correct, slower)
  hang        the program never ends
Exit codes: 0 the trace is written, 2 bad arguments.
"""

import argparse
import hashlib
import heapq
import json
import math
import random
import sys
import time
from fractions import Fraction

MASK = (1 << 64) - 1


# ---------------------------------------------------------------- workloads
def mix64(z):
    """SplitMix64's finaliser (src/base/hash.rs): the synthetic adversary's draws."""
    z = (z + 0x9E3779B97F4A7C15) & MASK
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return z ^ (z >> 31)


class Synth:
    """A synthetic workload's fixed parameters (docs/trace-format.md, "The synthetic tree")."""

    def __init__(self, body):
        f = dict(kv.split("=", 1) for kv in body.split(",") if "=" in kv)
        self.size, self.atomic, self.seed = int(f["size"]), int(f.get("atomic", 1)), int(f.get("seed", 0))
        words = f.get("split", "balanced").split(":")
        self.policy, self.num, self.den, self.branches, self.spine = words[0], 0, 1, 1, 0
        if self.policy == "alpha":
            digits = words[1][2:]
            self.num, self.den = int(digits), 10 ** len(digits)
        elif self.policy == "fig3":
            n = int(words[1]) if len(words) > 1 else 16
            default_spine = (max(2, self.size // self.atomic) - 1).bit_length()
            self.branches, self.spine = n // 2, int(words[2]) if len(words) > 2 else default_spine
        elif self.policy not in ("uniform", "peel", "balanced"):
            raise ValueError(f"split policy `{self.policy}` is not known here")

    def initial_phase(self, branches):
        if branches > 1:
            return ("top", branches)
        return ("large", 0) if self.spine == 0 else ("spine", self.spine)

    def give(self, s, phase, draw):
        """Units a split of a size-s part in `phase` gives away."""
        if self.policy == "fig3" and phase[0] == "spine":
            k = self.atomic
        elif self.policy == "uniform":
            q = max(1, s // 4)
            k = q + draw % (s - 2 * q + 1)
        elif self.policy == "alpha":
            k = s * self.num // self.den
        elif self.policy == "peel":
            k = 1
        else:
            k = s // 2
        return min(max(k, 1), s - 1)


class Interval:
    """A synthetic workload's part: the unit indices lo..hi, its generation and phase."""

    def __init__(self, cfg, lo, hi, gen=0, phase=None):
        self.cfg, self.lo, self.hi, self.gen = cfg, lo, hi, gen
        self.phase = phase or (cfg.initial_phase(cfg.branches) if cfg.policy == "fig3" else ("large", 0))

    def empty(self):
        return self.lo >= self.hi

    def work(self, budget):
        n = min(budget, self.hi - self.lo)
        ids = range(self.lo, self.lo + n)
        self.lo += n
        return n, ids

    def child_phases(self):
        kind, n = self.phase
        if kind == "top":
            p = self.cfg.initial_phase(n // 2)
            return p, p
        if kind == "spine" and n > 1:
            return ("spine", n - 1), ("large", 0)
        return ("large", 0), ("large", 0)

    def split(self):
        """Gives away the top k units hi-k..hi; both parts get generation + 1."""
        s = self.hi - self.lo
        if s <= self.cfg.atomic or s < 2:
            return None
        draw = mix64(self.cfg.seed ^ mix64(self.lo ^ mix64(self.hi ^ mix64(self.gen))))
        k = self.cfg.give(s, self.phase, draw)
        keep, given = self.child_phases()
        self.gen += 1
        part = Interval(self.cfg, self.hi - k, self.hi, self.gen, given)
        self.hi -= k
        self.phase = keep
        return part


class UtsParams:
    def __init__(self, args):
        self.t, self.a, self.d, self.b, self.r = 1, 0, 6, 4.0, 0
        self.q, self.m, self.f = 15 / 64, 4, 0.5
        words = args.split()
        for flag, value in zip(words[::2], words[1::2]):
            if flag == "-t":
                self.t = int(value)
            elif flag == "-a":
                self.a = int(value)
            elif flag == "-d":
                self.d = int(value)
            elif flag == "-b":
                self.b = float(value)
            elif flag == "-r":
                self.r = int(value)
            elif flag == "-q":
                self.q = float(value)
            elif flag == "-m":
                self.m = int(value)
            elif flag == "-f":
                self.f = float(value)


def uts_root(r):
    return (hashlib.sha1(bytes(16) + r.to_bytes(4, "big", signed=True)).digest(), 0)


def uts_children(node, p):
    state, height = node
    prob = (int.from_bytes(state[16:20], "big") & 0x7FFFFFFF) / 2147483648.0

    def geo():
        d, b0, mx = height, p.b, p.d
        if d == 0:
            b = b0
        elif p.a == 0:
            b = b0 * (1 - d / mx)
        elif p.a == 1:
            b = b0 * d ** (-math.log(b0) / math.log(mx))
        elif p.a == 2:
            b = 0.0 if d > 5 * mx else b0 ** math.sin(2 * math.pi * d / mx)
        else:
            b = b0 if d < mx else 0.0
        if b <= 0:
            return 0
        n = math.floor(math.log(1 - prob) / math.log(1 - 1 / (1 + b)))
        return max(0, min(n, 100))

    def binomial():
        return p.m if prob < p.q else 0

    if p.t == 0:
        n = math.floor(p.b) if height == 0 else min(binomial(), 100)
    elif p.t == 1:
        n = geo()
    elif p.t == 2:
        n = geo() if height == 0 or height < p.f * p.d else min(binomial(), 100)
    else:
        n = math.floor(p.b) if height < p.d else 0
    return [(hashlib.sha1(state + i.to_bytes(4, "big")).digest(), height + 1) for i in range(n)]


class Stack:
    """A UTS part: a DFS stack of nodes, bottom first."""

    def __init__(self, nodes, params, gen=0):
        self.nodes, self.p, self.gen = nodes, params, gen

    def empty(self):
        return not self.nodes

    def work(self, budget):
        ids = []
        while self.nodes and len(ids) < budget:
            node = self.nodes.pop()
            ids.append(int.from_bytes(node[0][:8], "little"))
            self.nodes.extend(uts_children(node, self.p))
        return len(ids), ids

    def split(self):
        """bottom-half: every other node (0, 2, ...) of the level nearest the
        root if it holds two or more nodes, else the bottom node alone."""
        n, h = len(self.nodes), lambda i: self.nodes[i][1]
        if n < 2:
            return None
        if h(1) == h(0):
            away = [i for i in range(n) if h(i) == h(0) and i % 2 == 0]
        else:
            away = [0]
        self.gen += 1
        part = Stack([self.nodes[i] for i in away], self.p, self.gen)
        gone = set(away)
        self.nodes = [x for i, x in enumerate(self.nodes) if i not in gone]
        return part


def workload(name):
    family, _, rest = name.partition(":")
    if family == "synthetic":
        cfg = Synth(rest)
        return Interval(cfg, 0, cfg.size)
    if family == "uts":
        args = rest[len("args="):] if rest.startswith("args=") else ""
        if rest not in ("", "default") and not rest.startswith("args="):
            raise ValueError(f"uts sample `{rest}` is not known here")
        p = UtsParams(args)
        return Stack([uts_root(p.r)], p)
    raise ValueError(f"workload `{name}`: only synthetic and uts are implemented")


def fingerprint(ids):
    s1 = s2 = s3 = 0
    n = 0
    for x in ids:
        n += 1
        s1 = (s1 + x) & MASK
        s2 = (s2 + x * x) & MASK
        s3 = (s3 + x * x * x) & MASK
    return f"{n}-{s1:016x}{s2:016x}{s3:016x}"


def energy_text(e):
    if e.denominator == 1:
        return str(e.numerator)
    return f"{e.numerator}/2^{e.denominator.bit_length() - 1}"


# ---------------------------------------------------------------- the machine
class Machine:
    def __init__(self, a, out):
        self.a, self.out = a, out
        self.pes, self.dt, self.t_split = a.pes, a.dt, a.t_split
        self.lat = tuple(int(x) for x in a.latency.split(".."))
        self.rng = random.Random(a.seed)
        self.now, self.seq, self.next_id = 0, 0, 0
        self.agenda = []
        self.task = [None] * self.pes
        self.queue = [[] for _ in range(self.pes)]
        self.energy = [Fraction(0)] * self.pes
        self.done = [False] * self.pes

    def log(self, ev, **fields):
        self.out.write(json.dumps({"ev": ev, "t": self.now, **fields}) + "\n")

    def at(self, t, what, *args):
        self.seq += 1
        heapq.heappush(self.agenda, (t, self.seq, what, args))

    def send(self, frm, to, kind, payload=None, energy=None):
        self.next_id += 1
        fields = {"from": frm, "to": to, "id": self.next_id, "kind": kind}
        if energy is not None:
            fields["energy"] = energy_text(energy)
        self.log("send", **fields)
        latency = self.rng.randint(*self.lat)
        self.at(self.now + latency, self.deliver, frm, to, self.next_id, kind, payload, energy)

    def run(self, root):
        self.task[0] = root
        self.energy[0] = Fraction(1)
        self.log("busy", pe=0)
        self.log("energy", pe=0, held="1")
        self.at(0, self.slice, 0)
        for pe in range(1, self.pes):
            self.at(0, self.ask, pe)
        while self.agenda:
            t, _, what, args = heapq.heappop(self.agenda)
            self.now = t
            what(*args)
        self.log("end")

    def slice(self, pe):
        units, ids = self.task[pe].work(self.dt)
        self.at(self.now + units, self.poll, pe, units, self.task[pe].gen, fingerprint(ids))

    def poll(self, pe, units, gen, fp):
        self.log("work", pe=pe, units=units, gen=gen, fp=fp)
        if self.task[pe].empty():
            return self.go_idle(pe)
        if self.queue[pe]:
            return self.serve(pe, self.queue[pe].pop(0))
        self.slice(pe)

    def serve(self, pe, to):
        part = self.task[pe].split()
        if part is None:
            self.send(pe, to, "reject")
            return self.slice(pe)
        self.log("split", pe=pe, gen=part.gen)
        self.at(self.now + self.t_split, self.give, pe, to, part)

    def give(self, pe, to, part):
        if self.a.bug == "lose-work":
            self.send(pe, to, "reject")
            return self.slice(pe)
        if self.a.bug == "dup-work":
            self.task[pe] = merged(self.task[pe], part)
        share = self.energy[pe] / 2
        self.energy[pe] -= share
        self.send(pe, to, "work", part, share)
        self.log("energy", pe=pe, held=energy_text(self.energy[pe]))
        self.slice(pe)

    def go_idle(self, pe):
        self.task[pe] = None
        self.log("idle", pe=pe)
        for r in self.queue[pe]:
            self.send(pe, r, "reject")
        self.queue[pe] = []
        if pe != 0 and self.energy[pe] > 0:
            e, self.energy[pe] = self.energy[pe], Fraction(0)
            self.send(pe, 0, "energy", None, e)
            self.log("energy", pe=pe, held="0")
        self.maybe_announce()
        if not self.done[pe]:
            self.ask(pe)

    def ask(self, pe):
        if self.pes > 1 and not self.done[pe]:
            victim = self.rng.randrange(self.pes - 1)
            self.send(pe, victim + (victim >= pe), "request")

    def maybe_announce(self):
        if self.task[0] is None and self.energy[0] == 1 and not self.done[0]:
            self.log("announce", pe=0)
            self.done[0] = True
            self.log("terminated", pe=0)
            for pe in range(1, self.pes):
                self.send(0, pe, "terminate")

    def deliver(self, frm, to, mid, kind, payload, energy):
        if kind == "request" and self.a.bug == "ignore-requests" and self.task[to] is not None:
            return  # never read: the request stays unreceived
        self.log("recv", pe=to, **{"from": frm}, id=mid, kind=kind)
        if self.done[to]:
            return
        if kind == "request":
            if self.task[to] is None:
                self.send(to, frm, "reject")
            else:
                self.queue[to].append(frm)
        elif kind == "reject":
            if self.a.bug == "slow":
                self.at(self.now + 20 * (self.lat[1] + self.dt), self.ask, to)
            else:
                self.ask(to)
        elif kind == "work":
            self.task[to] = payload
            self.energy[to] += energy
            self.log("busy", pe=to)
            self.log("energy", pe=to, held=energy_text(self.energy[to]))
            self.slice(to)
        elif kind == "energy":
            self.energy[to] += energy
            self.log("energy", pe=to, held=energy_text(self.energy[to]))
            self.maybe_announce()
        elif kind == "terminate":
            self.done[to] = True
            self.log("terminated", pe=to)


def merged(kept, part):
    """dup-work: the server keeps a copy of the part it sends."""
    if isinstance(kept, Interval):
        return Interval(kept.cfg, kept.lo, part.hi, kept.gen, kept.phase)
    return Stack(list(part.nodes) + kept.nodes, kept.p, kept.gen)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--pes", type=int, required=True)
    ap.add_argument("--seed", type=int, required=True)
    ap.add_argument("--workload", required=True)
    ap.add_argument("--dt", type=int, required=True)
    ap.add_argument("--t-split", type=int, required=True)
    ap.add_argument("--latency", required=True, help="a..b")
    ap.add_argument("--trace", help="where to write the trace (default: standard output)")
    ap.add_argument("--bug", choices=["lose-work", "dup-work", "ignore-requests", "slow", "hang"])
    a = ap.parse_args()
    if a.bug == "hang":
        time.sleep(3600)
    try:
        root = workload(a.workload)
    except (ValueError, KeyError) as e:
        print(f"randpoll.py: {e}", file=sys.stderr)
        return 2
    out = open(a.trace, "w") if a.trace else sys.stdout
    low, high = (int(x) for x in a.latency.split(".."))
    run = {"driver": "external", "seed": a.seed, "dt": a.dt, "latency": [low, high]}
    header = {
        "ev": "header", "version": 1, "pes": a.pes, "workload": a.workload, "split": "bottom-half",
        "balancer": "random-polling", "detector": "energy", "t_split": a.t_split, "clock": "work", "run": run,
    }
    out.write(json.dumps(header) + "\n")
    Machine(a, out).run(root)
    out.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
