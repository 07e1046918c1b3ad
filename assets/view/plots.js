// Live plots of the focused character: the deviation of each hit-chain joint from the clip (degrees), the sum of
// its contact forces (N) and its balance state, over the last WINDOW seconds; and the event feed.
const WINDOW = 6;
const COLORS = ['#ff6b5a', '#ffb347', '#f5e663', '#8fd16b', '#56c7c4', '#6aa8ff', '#b48cff', '#ff8fd1'];
const STATE_COLORS = { Tracking: '#3c7', Staggering: '#eb3', Falling: '#f63', Ragdoll: '#c33', Resting: '#88a',
  GettingUp: '#49f' };

export class Plots {
  constructor(canvas, list) {
    this.canvas = canvas;
    this.ctx = canvas.getContext('2d');
    this.list = list;
    this.samples = [];
    this.chain = [];
    this.chainVersion = -1;
    this.peak = 0;
    this.dirty = true;
  }

  setChain(names, version) {
    if (version !== this.chainVersion) {
      this.chain = names;
      this.chainVersion = version;
      this.samples = [];
      this.dirty = true;
    }
  }

  add(msg) {
    if (msg.chain_version !== this.chainVersion) return;
    for (const s of msg.samples) {
      this.samples.push(s);
      for (const d of s.dev) this.peak = Math.max(this.peak, d);
    }
    const last = this.samples.length ? this.samples[this.samples.length - 1].t : 0;
    let cut = 0;
    while (cut < this.samples.length && this.samples[cut].t < last - WINDOW) cut++;
    if (cut) this.samples.splice(0, cut);
    this.dirty = true;
  }

  // Time went back (a scrub or a restart): drop what is after it.
  rewind(t) {
    this.samples = this.samples.filter((s) => s.t <= t);
    this.dirty = true;
  }

  event(text) {
    const li = document.createElement('li');
    li.textContent = text;
    this.list.prepend(li);
    while (this.list.children.length > 12) this.list.lastChild.remove();
  }

  // Redraws when samples came since the last drawing.
  draw() {
    if (!this.dirty) return;
    this.dirty = false;
    const { ctx, canvas } = this;
    const W = canvas.width, H = canvas.height;
    ctx.clearRect(0, 0, W, H);
    ctx.font = '11px monospace';
    const devH = 170, forceH = 70, stateY = devH + forceH + 22;
    const s = this.samples;
    const t1 = s.length ? s[s.length - 1].t : 0;
    const x = (t) => 40 + (W - 50) * (1 - (t1 - t) / WINDOW);
    let maxDev = 10;
    for (const p of s) for (const d of p.dev) maxDev = Math.max(maxDev, d);
    maxDev = Math.ceil(maxDev / 10) * 10;
    ctx.strokeStyle = '#555'; ctx.fillStyle = '#aaa';
    ctx.strokeRect(40, 4, W - 50, devH);
    ctx.fillText(`${maxDev}°`, 4, 14);
    ctx.fillText('0°', 16, devH + 4);
    ctx.fillText('joint deviation, hit chain', 46, 16);
    const n = Math.min(this.chain.length, 64);
    for (let j = 0; j < n; j++) {
      ctx.strokeStyle = COLORS[j % COLORS.length];
      ctx.beginPath();
      s.forEach((p, i) => {
        const y = 4 + devH * (1 - p.dev[j] / maxDev);
        if (i === 0) ctx.moveTo(x(p.t), y); else ctx.lineTo(x(p.t), y);
      });
      ctx.stroke();
    }
    // Legend: the chain's last joints (the hit body and below), the most telling.
    const shown = this.chain.slice(-6);
    shown.forEach((name, k) => {
      const j = this.chain.length - shown.length + k;
      ctx.fillStyle = COLORS[j % COLORS.length];
      ctx.fillText(name.slice(0, 14), W - 110, 30 + 12 * k);
    });
    let maxF = 100;
    for (const p of s) maxF = Math.max(maxF, p.force);
    const fy = devH + 10;
    ctx.strokeStyle = '#555'; ctx.strokeRect(40, fy, W - 50, forceH);
    ctx.fillStyle = '#aaa';
    ctx.fillText(`${Math.round(maxF)} N`, 2, fy + 10);
    ctx.fillText('contact forces', 46, fy + 12);
    ctx.strokeStyle = '#9cf';
    ctx.beginPath();
    s.forEach((p, i) => {
      const y = fy + forceH * (1 - p.force / maxF);
      if (i === 0) ctx.moveTo(x(p.t), y); else ctx.lineTo(x(p.t), y);
    });
    ctx.stroke();
    for (let i = 1; i < s.length; i++) {
      ctx.fillStyle = STATE_COLORS[s[i].state] || '#777';
      ctx.fillRect(x(s[i - 1].t), stateY, Math.max(1, x(s[i].t) - x(s[i - 1].t)), 10);
    }
    ctx.fillStyle = '#ddd';
    ctx.fillText(`balance: ${s.length ? s[s.length - 1].state : '-'}   peak ${this.peak.toFixed(1)}°`, 40, stateY + 24);
  }
}
