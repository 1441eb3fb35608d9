import { describe, expect, it } from 'vitest';
import { callgrindWrapper, instructionsOf } from '../../bench/instructions.js';

describe('bench:ab --instructions', () => {
  it('reads the instruction total of a callgrind dump from its totals line, else its summary, and nothing from a dump without either', () => {
    const header = 'version: 1\ncreator: callgrind-3.19.0\npid: 8390\ncmd:  node dist/src/main.js\npart: 9\n\npositions: line\nevents: Ir\n';
    expect(instructionsOf(`${header}summary: 1433746957\n\nfl=(1) ???\nfn=(1) main\n0 12\n`)).toBe(1_433_746_957);
    expect(instructionsOf(`${header}fl=(1) ???\nfn=(1) main\n0 12\n\ntotals: 802890809\n`)).toBe(802_890_809);
    // A dump asked for through vgdb says `summary: 0`; its totals line has the count.
    expect(instructionsOf(`${header}summary: 0\n\nfl=(1) ???\nfn=(1) main\n0 12\n\ntotals: 1222352962\n`)).toBe(1_222_352_962);
    expect(instructionsOf(`${header}fl=(1) ???\nfn=(1) main\n0 12\n`)).toBeNull();
  });

  it('runs node under callgrind with counting off until asked, dumps and vgdb pipes kept in its own directory', () => {
    const wrapper = callgrindWrapper('/tmp/bench-ir-x');
    expect(wrapper.slice(0, 2)).toEqual(['valgrind', '--tool=callgrind']);
    expect(wrapper).toContain('--instr-atstart=no');
    expect(wrapper).toContain('--callgrind-out-file=/tmp/bench-ir-x/callgrind.%p');
    expect(wrapper).toContain('--vgdb-prefix=/tmp/bench-ir-x/vgdb');
  });
});
