// The 3D view: characters as their collision capsules (simulated: solid; the clip: a translucent ghost) and, for a
// glTF rig with a skin, as its skinned mesh (skin.js; draw mode: capsules, skin, or both with the capsules
// translucent), balls, the floor or the level, an orbit camera that can follow a character.
//
// Every capsule of every character is drawn by two instanced meshes (a low-poly open cylinder for the shafts and
// a sphere for the caps), the ghost by two more: four draw calls for any number of characters (two more for the
// translucent capsules of skinned characters in the "both" mode). A frame only rewrites the instance matrices
// (preallocated; nothing is allocated per frame).
import * as THREE from './three.module.min.js';
import { OrbitControls } from './OrbitControls.js';
import { Skins } from './skin.js';

const SIM_COLOR = 0xd9503f;
const GHOST_COLOR = 0x4f8fe0;
const UP = new THREE.Vector3(0, 1, 0);

// Multisampling, unless the browser renders WebGL in software (SwiftShader, llvmpipe: there 4× multisampling
// triples the time of a frame) or the page's URL says `?antialias=0` (`=1` forces it).
function wantAntialias() {
  const asked = new URLSearchParams(window.location.search).get('antialias');
  if (asked !== null) return asked !== '0';
  try {
    const gl = document.createElement('canvas').getContext('webgl2');
    if (!gl) return true;
    const info = gl.getExtension('WEBGL_debug_renderer_info');
    const name = String(gl.getParameter(info ? info.UNMASKED_RENDERER_WEBGL : gl.RENDERER));
    const lose = gl.getExtension('WEBGL_lose_context');
    if (lose) lose.loseContext();
    return !/swiftshader|llvmpipe|software/i.test(name);
  } catch {
    return true;
  }
}

// Scratch values of the per-frame loops.
const _m = new THREE.Matrix4();
const _p = new THREE.Vector3();
const _q = new THREE.Quaternion();
const _s = new THREE.Vector3(1, 1, 1);

// Instanced capsules of one look (simulated, simulated translucent, or ghost): shafts and caps, for the capsules
// listed in `members` (indices into the drawing's capsules; instance k draws capsule members[k]).
class CapsuleSet {
  constructor(world, cylinder, sphere, material, count) {
    this.shafts = new THREE.InstancedMesh(cylinder, material, Math.max(1, count));
    this.caps = new THREE.InstancedMesh(sphere, material, Math.max(1, 2 * count));
    this.members = [];
    this.shafts.count = 0;
    this.caps.count = 0;
    for (const m of [this.shafts, this.caps]) {
      m.instanceMatrix.array.fill(0); // nothing drawn before the first frame places them
      m.frustumCulled = false; // the instances move; their bounds are not kept
      m.instanceMatrix.setUsage(THREE.DynamicDrawUsage);
      world.add(m);
    }
  }

  set visible(v) { this.shafts.visible = v; this.caps.visible = v; }

  setMembers(members) {
    this.members = members;
    this.shafts.count = members.length;
    this.caps.count = 2 * members.length;
  }

  dispose() { this.shafts.dispose(); this.caps.dispose(); }
}

export class Drawing {
  constructor(container) {
    this.renderer = new THREE.WebGLRenderer({ antialias: wantAntialias(), preserveDrawingBuffer: true,
      powerPreference: 'high-performance' });
    this.renderer.setPixelRatio(1);
    this.renderer.setSize(container.clientWidth, container.clientHeight);
    this.renderer.shadowMap.enabled = false;
    container.appendChild(this.renderer.domElement);
    this.scene = new THREE.Scene();
    this.scene.background = new THREE.Color(0x20242b);
    this.camera = new THREE.PerspectiveCamera(45, container.clientWidth / container.clientHeight, 0.05, 500);
    this.camera.position.set(3.5, 2.0, 3.5);
    this.controls = new OrbitControls(this.camera, this.renderer.domElement);
    this.controls.target.set(0, 0.9, 0);
    this.controls.enableDamping = false;
    // Drawn on demand: after a new frame or a camera move.
    this.needsRender = true;
    this.controls.addEventListener('change', () => { this.needsRender = true; });
    this.scene.add(new THREE.HemisphereLight(0xffffff, 0x404050, 2.2));
    const sun = new THREE.DirectionalLight(0xffffff, 1.6);
    sun.position.set(4, 8, 3);
    this.scene.add(sun);
    this.world = new THREE.Group();
    this.scene.add(this.world);
    this.characters = [];
    this.balls = [];
    // Low poly: a capsule is 10 × 1 shaft quads and two 10 × 6 spheres.
    this.cylinder = new THREE.CylinderGeometry(1, 1, 1, 10, 1, true);
    this.sphere = new THREE.SphereGeometry(1, 10, 6);
    this.ballGeometry = new THREE.SphereGeometry(1, 16, 10);
    // Lambert (per-pixel diffuse) costs a fraction of the physically based material in a software renderer.
    this.ballMaterial = new THREE.MeshLambertMaterial({ color: 0xf0d060 });
    this.simMaterial = new THREE.MeshLambertMaterial({ color: SIM_COLOR });
    this.ghostMaterial = new THREE.MeshLambertMaterial({ color: GHOST_COLOR, transparent: true, opacity: 0.28,
      depthWrite: false });
    // The capsules of a skinned character drawn with its skin ("both").
    this.simClearMaterial = new THREE.MeshLambertMaterial({ color: SIM_COLOR, transparent: true, opacity: 0.35,
      depthWrite: false });
    this.sim = null;
    this.simClear = null;
    this.ghost = null;
    // 'both' (capsules translucent over the skin), 'skin' or 'capsules': how characters with a skin are drawn.
    this.drawMode = 'both';
    // A copy placed (or a rig failed): its character's capsules change sets.
    this.skins = new Skins(() => this.skinsChanged());
    this.ghostVisible = true;
    // Capsules in body frames, for every character: per capsule its body (global index) and its shaft and cap
    // matrices in the body frame.
    this.capsules = [];
    this.raycaster = new THREE.Raycaster();
    this.ndc = new THREE.Vector2();
    window.addEventListener('resize', () => {
      this.camera.aspect = container.clientWidth / container.clientHeight;
      this.camera.updateProjectionMatrix();
      this.renderer.setSize(container.clientWidth, container.clientHeight);
      this.needsRender = true;
    });
  }

  // Rebuilds everything from a `scene` message.
  setScene(desc) {
    this.scene.remove(this.world);
    // The skins' copies share their rig's geometry (kept for the next scene's copies): not disposed.
    this.world.remove(this.skins.group);
    this.world.traverse((o) => {
      if (o.geometry && ![this.ballGeometry, this.cylinder, this.sphere].includes(o.geometry)) o.geometry.dispose();
    });
    if (this.sim) { this.sim.dispose(); this.simClear.dispose(); this.ghost.dispose(); }
    this.world = new THREE.Group();
    this.scene.add(this.world);
    this.capsules = [];
    let bodyBase = 0;
    this.characters = desc.characters.map((ch, ci) => {
      const bodies = ch.bodies.map((body, bi) => {
        const first = this.capsules.length;
        for (const c of body.capsules) this.capsules.push(capsuleParts(c, bodyBase + bi, ci, bi));
        return { name: body.name, capsules: [first, this.capsules.length] };
      });
      const out = { bodies, base: bodyBase,
        // Body frames as matrices (simulated, ghost), rewritten by each frame.
        simFrames: bodies.map(() => new THREE.Matrix4()), ghostFrames: bodies.map(() => new THREE.Matrix4()) };
      bodyBase += bodies.length;
      return out;
    });
    const n = this.capsules.length;
    this.sim = new CapsuleSet(this.world, this.cylinder, this.sphere, this.simMaterial, n);
    this.simClear = new CapsuleSet(this.world, this.cylinder, this.sphere, this.simClearMaterial, n);
    this.ghost = new CapsuleSet(this.world, this.cylinder, this.sphere, this.ghostMaterial, n);
    this.ghost.setMembers(this.capsules.map((_, i) => i));
    this.ghost.visible = this.ghostVisible;
    this.skins.setScene(desc, this.world);
    this.assignCapsules();
    if (desc.level) {
      const g = new THREE.BufferGeometry();
      g.setAttribute('position', new THREE.Float32BufferAttribute(desc.level.positions, 3));
      g.setIndex(desc.level.indices);
      g.computeVertexNormals();
      const level = new THREE.Mesh(g, new THREE.MeshLambertMaterial({ color: 0x8a8f98,
        side: THREE.DoubleSide, flatShading: true }));
      this.world.add(level);
    } else {
      const floor = new THREE.Mesh(new THREE.PlaneGeometry(60, 60),
        new THREE.MeshLambertMaterial({ color: 0x3a4048 }));
      floor.rotation.x = -Math.PI / 2;
      floor.position.y = desc.floor - 0.002;
      this.world.add(floor);
      const grid = new THREE.GridHelper(60, 60, 0x667080, 0x4a525e);
      grid.position.y = desc.floor;
      this.world.add(grid);
    }
    this.balls = [];
    this.needsRender = true;
  }

  // Which set draws each simulated capsule: those of a character whose skin is placed go to the translucent set
  // unless the mode is 'capsules' (that set is hidden in the 'skin' mode but still picked, so drag works on the
  // skin); the others (no skin, its rig not loaded yet or failed) are drawn as today.
  assignCapsules() {
    const opaque = [];
    const clear = [];
    this.capsules.forEach((c, i) => {
      const skinned = this.skins.has(c.character);
      (skinned && this.drawMode !== 'capsules' ? clear : opaque).push(i);
    });
    this.sim.setMembers(opaque);
    this.simClear.setMembers(clear);
    this.simClear.visible = this.drawMode === 'both';
    this.skins.visible = this.drawMode !== 'capsules';
  }

  skinsChanged() {
    this.setDrawMode(this.drawMode);
    this.needsRender = true;
  }

  // 'both', 'skin' or 'capsules' (characters without a skin are drawn as capsules in every mode).
  setDrawMode(mode) {
    if (!['both', 'skin', 'capsules'].includes(mode)) return;
    this.drawMode = mode;
    if (!this.sim) return;
    this.assignCapsules();
    const n = this.characters.length;
    this.place(this.sim, 'simFrames', n);
    this.place(this.simClear, 'simFrames', n);
    this.needsRender = true;
  }

  setGhost(visible) {
    this.ghostVisible = visible;
    if (this.ghost) this.ghost.visible = visible;
    this.needsRender = true;
  }

  // Places the bodies and balls of a decoded frame.
  applyFrame(frame) {
    const n = Math.min(frame.characters.length, this.characters.length);
    for (let ci = 0; ci < n; ci++) {
      const cf = frame.characters[ci];
      const ch = this.characters[ci];
      setFrames(ch.simFrames, cf.sim);
      if (this.ghostVisible) setFrames(ch.ghostFrames, cf.ghost);
    }
    this.place(this.sim, 'simFrames', n);
    this.place(this.simClear, 'simFrames', n);
    if (this.ghostVisible) this.place(this.ghost, 'ghostFrames', n);
    this.skins.applyFrame(frame);
    while (this.balls.length < frame.balls.length) {
      const m = new THREE.Mesh(this.ballGeometry, this.ballMaterial);
      this.world.add(m);
      this.balls.push(m);
    }
    for (let i = 0; i < this.balls.length; i++) {
      const m = this.balls[i];
      const b = frame.balls[i];
      m.visible = !!b;
      if (b) { m.position.set(b[0], b[1], b[2]); m.scale.setScalar(b[3]); }
    }
    this.needsRender = true;
  }

  // The instance matrices of a capsule set from the characters' body frames (`key`: simFrames or ghostFrames).
  place(set, key, nCharacters) {
    const shafts = set.shafts.instanceMatrix.array;
    const caps = set.caps.instanceMatrix.array;
    const members = set.members;
    for (let i = 0; i < members.length; i++) {
      const c = this.capsules[members[i]];
      if (c.character >= nCharacters) continue;
      const frame = this.characters[c.character][key][c.body];
      _m.multiplyMatrices(frame, c.shaft).toArray(shafts, 16 * i);
      _m.multiplyMatrices(frame, c.capA).toArray(caps, 32 * i);
      _m.multiplyMatrices(frame, c.capB).toArray(caps, 32 * i + 16);
    }
    set.shafts.instanceMatrix.needsUpdate = true;
    set.caps.instanceMatrix.needsUpdate = true;
  }

  // Moves the orbit target toward a character's root body.
  follow(ci) {
    const ch = this.characters[ci];
    if (!ch || !ch.simFrames[0]) return;
    _p.setFromMatrixPosition(ch.simFrames[0]);
    const t = this.controls.target;
    const dx = (_p.x - t.x) * 0.1;
    const dz = (_p.z - t.z) * 0.1;
    if (Math.abs(dx) + Math.abs(dz) < 1e-5) return;
    t.x += dx; t.z += dz;
    this.camera.position.x += dx; this.camera.position.z += dz;
    this.needsRender = true;
  }

  // The camera ray through a page point (client pixels).
  ray(clientX, clientY) {
    const r = this.renderer.domElement.getBoundingClientRect();
    this.ndc.set(((clientX - r.left) / r.width) * 2 - 1, -((clientY - r.top) / r.height) * 2 + 1);
    this.raycaster.setFromCamera(this.ndc, this.camera);
    return this.raycaster.ray;
  }

  // The simulated body under a page point: {character, body, point (world), local (body frame)} or null.
  pick(clientX, clientY) {
    if (!this.sim) return null;
    this.ray(clientX, clientY);
    // The instances moved since the bounds were taken: the raycast's early-out sphere is recomputed.
    const meshes = [];
    for (const set of [this.sim, this.simClear]) {
      if (set.members.length === 0) continue;
      set.shafts.computeBoundingSphere();
      set.caps.computeBoundingSphere();
      meshes.push(set.shafts, set.caps);
    }
    const hit = this.raycaster.intersectObjects(meshes, false)[0];
    if (!hit || hit.instanceId === undefined) return null;
    const set = hit.object === this.sim.shafts || hit.object === this.sim.caps ? this.sim : this.simClear;
    const isCap = hit.object === set.caps;
    const c = this.capsules[set.members[isCap ? hit.instanceId >> 1 : hit.instanceId]];
    if (!c) return null;
    const frame = this.characters[c.character].simFrames[c.body];
    const local = hit.point.clone().applyMatrix4(new THREE.Matrix4().copy(frame).invert());
    return { character: c.character, body: c.body, point: hit.point, local };
  }

  // The world middle of a body's first capsule (its origin without capsules), or null.
  bodyPoint(ci, name) {
    const ch = this.characters[ci];
    if (!ch) return null;
    const b = ch.bodies.findIndex((x) => x.name === name);
    if (b < 0) return null;
    const [first, end] = ch.bodies[b].capsules;
    const p = new THREE.Vector3();
    if (end > first) p.setFromMatrixPosition(this.capsules[first].shaft);
    return p.applyMatrix4(ch.simFrames[b]);
  }

  // The page point (client pixels) of a body's capsule middle, for tests and the screenshot.
  screenPoint(ci, name) {
    const p = this.bodyPoint(ci, name);
    if (!p) return null;
    p.project(this.camera);
    const r = this.renderer.domElement.getBoundingClientRect();
    return { x: r.left + (p.x + 1) / 2 * r.width, y: r.top + (1 - p.y) / 2 * r.height };
  }

  // Puts the camera 3 m from a body on the side it sticks out to (the right forearm from the right), level with
  // it, looking at it.
  viewBone(ci, name) {
    const p = this.bodyPoint(ci, name);
    if (!p) return false;
    const root = new THREE.Vector3().setFromMatrixPosition(this.characters[ci].simFrames[0]);
    const side = new THREE.Vector3(p.x - root.x, 0, p.z - root.z);
    if (side.lengthSq() < 1e-6) side.set(1, 0, 0);
    side.normalize();
    this.camera.position.set(p.x + side.x * 3, p.y + 0.4, p.z + side.z * 3);
    this.controls.target.copy(p);
    this.controls.update();
    this.needsRender = true;
    return true;
  }

  // Draws if anything changed since the last drawing; true when it drew.
  render(force = false) {
    if (!this.needsRender && !force) return false;
    this.needsRender = false;
    this.renderer.render(this.scene, this.camera);
    return true;
  }
}

// A capsule [ax, ay, az, bx, by, bz, r] of body `body` (global index `global`, character `character`): its shaft
// (unit cylinder scaled to r × length × r, turned from +y onto a→b) and caps (unit spheres of radius r at a, b) as
// matrices in the body frame.
function capsuleParts(c, global, character, body) {
  const a = new THREE.Vector3(c[0], c[1], c[2]);
  const b = new THREE.Vector3(c[3], c[4], c[5]);
  const r = c[6];
  const len = a.distanceTo(b);
  const q = new THREE.Quaternion();
  if (len > 1e-9) q.setFromUnitVectors(UP, b.clone().sub(a).normalize());
  const mid = a.clone().add(b).multiplyScalar(0.5);
  // A sphere (no length) gets a shaft of zero length: nothing is drawn for it.
  const shaft = new THREE.Matrix4().compose(mid, q, new THREE.Vector3(r, len, r));
  const capA = new THREE.Matrix4().compose(a, q, new THREE.Vector3(r, r, r));
  const capB = new THREE.Matrix4().compose(b, q, new THREE.Vector3(r, r, r));
  return { global, character, body, shaft, capA, capB };
}

// Body frames (x y z, quaternion x y z w per body) into matrices.
function setFrames(matrices, data) {
  const n = Math.min(matrices.length, data.length / 7);
  for (let b = 0; b < n; b++) {
    const o = 7 * b;
    _p.set(data[o], data[o + 1], data[o + 2]);
    _q.set(data[o + 3], data[o + 4], data[o + 5], data[o + 6]);
    matrices[b].compose(_p, _q, _s);
  }
}
