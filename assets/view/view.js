// flinch view's page: connects to the session's WebSocket, keeps one pose frame request in flight (the next is
// asked for when a frame arrives, so drawing never waits a round trip), draws the newest frame when one came (or
// the camera moved), plots the focused character and sends the controls' messages. `window.flinchView` exposes
// the state to tests.
import { decodeFrame, FLAG_PAUSED, FLAG_RECORDING } from './protocol.js';
import { Drawing } from './draw.js';
import { Plots } from './plots.js';
import { bindControls, fillSelects } from './controls.js';

const $ = (id) => document.getElementById(id);
// How long after a click the page waits for the click's frame before drawing an older one (ms).
const CLICK_HOLD_MS = 40;

class View {
  constructor() {
    this.drawing = new Drawing($('viewport'));
    this.plots = new Plots($('plot'), $('events'));
    this.paused = false;
    this.recording = false;
    this.history = [0, 0];
    this.focus = 0;
    this.sceneDesc = null;
    this.frame = null;
    this.newFrame = false;
    this.asked = false;
    this.events = [];
    this.errors = [];
    this.stats = { frameMs: [], latencyMs: [], arrivalMs: [], frames: 0 };
    this.pendingClick = null;
    this.clickHits = 0;
    const url = new URL('ws', window.location.href);
    url.protocol = 'ws:';
    this.ws = new WebSocket(url);
    this.ws.binaryType = 'arraybuffer';
    this.ws.onmessage = (e) => this.receive(e.data);
    this.ws.onclose = () => this.say('disconnected from flinch view');
    this.ws.onopen = () => this.ask();
    this.pixel = new Uint8Array(4);
    this.followOn = $('follow').checked;
    $('follow').addEventListener('change', (e) => { this.followOn = e.target.checked; });
    bindControls(this);
    this.tickBound = () => this.tick();
    requestAnimationFrame(this.tickBound);
  }

  send(m) {
    if (this.ws.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(m));
  }

  ask() {
    if (!this.asked && this.ws.readyState === WebSocket.OPEN) {
      this.asked = true;
      this.send({ type: 'frame' });
    }
  }

  say(text) { $('message').textContent = text; }

  clickSent(t) { this.pendingClick = { t, hits: this.clickHits + 1 }; }

  receive(data) {
    if (data instanceof ArrayBuffer) {
      this.asked = false;
      this.ask();
      const frame = decodeFrame(data);
      if (this.sceneDesc && frame.header.sceneVersion !== this.sceneDesc.version) return;
      if (this.frame && frame.header.time < this.frame.header.time - 1e-9) this.plots.rewind(frame.header.time);
      this.frame = frame;
      this.newFrame = true;
      this.clickHits = frame.header.clickHits;
      if (this.pendingClick && !this.pendingClick.received && frame.header.clickHits >= this.pendingClick.hits) {
        this.pendingClick.received = performance.now();
      }
      return;
    }
    const m = JSON.parse(data);
    switch (m.type) {
      case 'scene':
        this.sceneDesc = m;
        this.drawing.setScene(m);
        this.drawing.setGhost($('ghost').checked);
        fillSelects(m);
        this.frame = null;
        break;
      case 'status':
        this.paused = m.paused;
        this.recording = m.recording;
        this.history = m.history;
        this.focus = m.focus;
        this.plots.setChain(m.chain, m.chain_version);
        $('play').textContent = m.paused ? 'Play' : 'Pause';
        $('record').textContent = m.recording ? 'Stop recording' : 'Record';
        if (m.characters[m.focus]) $('policy').value = m.characters[m.focus].policy;
        $('character').value = String(m.focus);
        break;
      case 'plot':
        this.plots.add(m);
        break;
      case 'event':
        this.events.push(m);
        this.plots.event(m.kind === 'state'
          ? `${m.t.toFixed(3)} s  #${m.character} ${m.from} → ${m.to}`
          : `${m.t.toFixed(3)} s  #${m.character} ${m.kind} ${m.bone || ''} ${m.impulse ? m.impulse.toFixed(2) + ' N·s' : ''} ${m.source || m.message || ''}`);
        break;
      case 'recorded': {
        const box = $('downloads');
        box.innerHTML = '';
        for (const f of m.files) {
          const a = document.createElement('a');
          a.href = `download/${f}`;
          a.textContent = f;
          a.download = f;
          box.appendChild(a);
        }
        break;
      }
      case 'error':
        this.errors.push(m.message);
        this.say(m.message);
        break;
      case 'info':
        this.say(m.message);
        break;
      case 'stats':
        this.serverStats = m;
        break;
      default:
        break;
    }
  }

  tick() {
    const t0 = performance.now();
    const click = this.pendingClick;
    // A click's frame is due within a physics step and a poll: a frame from before it is not drawn meanwhile
    // (in a renderer as slow as a software one, drawing it would hold the click's frame back by a whole frame).
    const hold = click && !click.received && t0 - click.t < CLICK_HOLD_MS;
    if (this.frame && this.newFrame && !hold) {
      this.drawing.applyFrame(this.frame);
      this.newFrame = false;
      const h = this.frame.header;
      $('clock').textContent = `${h.time.toFixed(3)} s${h.flags & FLAG_PAUSED ? ' ⏸' : ''}${h.flags & FLAG_RECORDING ? ' ●' : ''}`;
      const [a, b] = this.history;
      $('scrub-v').textContent = `${a.toFixed(1)}–${b.toFixed(1)} s`;
    }
    if (this.followOn) this.drawing.follow(this.focus);
    const drew = !hold && this.drawing.render();
    this.plots.draw();
    if (drew && (this.syncTiming || (click && click.received))) {
      // Wait for the GPU (a 1-pixel read-back), so the time is the frame's whole render, not its submission.
      const gl = this.drawing.renderer.getContext();
      gl.readPixels(0, 0, 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, this.pixel);
    }
    if (drew && click && click.received) {
      // Click to the end of drawing the first frame whose step carried the impulse; and to its arrival.
      const now = performance.now();
      this.stats.latencyMs.push(now - click.t);
      this.stats.arrivalMs.push(click.received - click.t);
      this.pendingClick = null;
    }
    if (drew) {
      this.stats.frameMs.push(performance.now() - t0);
      if (this.stats.frameMs.length > 600) this.stats.frameMs.shift();
      this.stats.frames++;
    }
    this.ask();
    requestAnimationFrame(this.tickBound);
  }
}

const view = new View();
window.flinchView = {
  view,
  get ready() { return !!(view.sceneDesc && view.frame); },
  get scene() { return view.sceneDesc; },
  get time() { return view.frame ? view.frame.header.time : 0; },
  get events() { return view.events; },
  get errors() { return view.errors; },
  get plot() { return { chain: view.plots.chain, samples: view.plots.samples, peak: view.plots.peak }; },
  get stats() { return view.stats; },
  get serverStats() { return view.serverStats; },
  // The skinned meshes: {expected, loaded, error, rigs} (expected: characters with a skin in the scene).
  get skin() { return view.drawing.skins.status; },
  set drawMode(mode) { document.getElementById('draw').value = mode; view.drawing.setDrawMode(mode); },
  screenPoint: (character, bone) => view.drawing.screenPoint(character, bone),
  viewBone: (character, bone) => view.drawing.viewBone(character, bone),
  set follow(on) { document.getElementById('follow').checked = on; view.followOn = on; },
  set syncTiming(on) { view.syncTiming = on; },
  send: (m) => view.send(m),
};
