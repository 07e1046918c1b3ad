// The panel's controls and the mouse tools (hit, throw, drag), turned into the JSON messages of docs/view.md.
const $ = (id) => document.getElementById(id);

export function bindControls(view) {
  const send = (m) => view.send(m);
  $('play').onclick = () => send({ type: view.paused ? 'play' : 'pause' });
  $('step').onclick = () => send({ type: 'step', count: 1 });
  $('restart').onclick = () => send({ type: 'restart' });
  $('scale').oninput = (e) => {
    const scale = Math.pow(2, Number(e.target.value));
    $('scale-v').textContent = `${scale.toFixed(2)}×`;
    send({ type: 'time_scale', scale: Math.min(4, Math.max(0.05, scale)) });
  };
  $('scrub').onchange = (e) => {
    const [a, b] = view.history;
    send({ type: 'scrub', time: a + (b - a) * Number(e.target.value) });
  };
  $('strength').oninput = (e) => { $('strength-v').textContent = `${Number(e.target.value).toFixed(2)} N·s`; };
  $('speed').oninput = (e) => { $('speed-v').textContent = `${e.target.value} m/s`; };
  $('character').onchange = (e) => send({ type: 'focus', character: Number(e.target.value) });
  const root = () => send({ type: 'root', character: Number($('character').value), policy: $('policy').value,
    assist: Number($('assist').value) });
  $('policy').onchange = root;
  $('assist').onchange = root;
  $('assist').oninput = (e) => { $('assist-v').textContent = Number(e.target.value).toFixed(2); };
  $('knockdown').onclick = () => send({ type: 'knockdown', character: Number($('character').value) });
  $('add').onclick = () => send({ type: 'add_character', clip: Number($('clip').value) });
  $('load').onclick = () => send({ type: 'load', clip: Number($('clip').value) });
  $('record').onclick = () => send({ type: 'record', on: !view.recording });
  $('ghost').onchange = (e) => view.drawing.setGhost(e.target.checked);
  $('draw').onchange = (e) => view.drawing.setDrawMode(e.target.value);

  // Mouse tools: a click (no movement) hits or throws; in drag mode, a press on a body grabs it.
  const canvas = view.drawing.renderer.domElement;
  let down = null;
  let dragging = null;
  const tool = () => document.querySelector('input[name=tool]:checked').value;
  canvas.addEventListener('pointerdown', (e) => {
    if (e.button !== 0) return;
    down = { x: e.clientX, y: e.clientY };
    if (tool() === 'drag') {
      const pick = view.drawing.pick(e.clientX, e.clientY);
      if (pick) {
        dragging = { ...pick, depth: view.drawing.camera.position.distanceTo(pick.point) };
        view.drawing.controls.enabled = false;
        canvas.setPointerCapture(e.pointerId);
      }
    }
  });
  canvas.addEventListener('pointermove', (e) => {
    if (!dragging) return;
    const ray = view.drawing.ray(e.clientX, e.clientY);
    const target = ray.origin.clone().addScaledVector(ray.direction, dragging.depth);
    send({ type: 'drag', character: dragging.character, body: dragging.body,
      local: [dragging.local.x, dragging.local.y, dragging.local.z], target: [target.x, target.y, target.z] });
  });
  canvas.addEventListener('pointerup', (e) => {
    if (dragging) {
      dragging = null;
      view.drawing.controls.enabled = true;
      send({ type: 'drag_end' });
      return;
    }
    if (!down || Math.hypot(e.clientX - down.x, e.clientY - down.y) > 4) return;
    down = null;
    const ray = view.drawing.ray(e.clientX, e.clientY);
    const origin = [ray.origin.x, ray.origin.y, ray.origin.z];
    const direction = [ray.direction.x, ray.direction.y, ray.direction.z];
    if (tool() === 'hit') {
      view.clickSent(performance.now());
      send({ type: 'hit', origin, direction, strength: Number($('strength').value) });
      view.ask();
    } else if (tool() === 'throw') {
      send({ type: 'throw', origin, direction, speed: Number($('speed').value) });
    }
  });
}

// Fills the selects from a `scene` message.
export function fillSelects(desc) {
  const fill = (sel, items) => {
    const keep = sel.value;
    sel.innerHTML = '';
    items.forEach((text, i) => {
      const o = document.createElement('option');
      o.value = String(i);
      o.textContent = text;
      sel.appendChild(o);
    });
    if (keep !== '' && Number(keep) < items.length) sel.value = keep;
  };
  fill($('character'), desc.characters.map((c, i) => `${i}: ${c.policy}`));
  fill($('clip'), desc.clips);
}
