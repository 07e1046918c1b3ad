// The skinned meshes of glTF rigs (docs/view.md, "The skin"). A rig is fetched once from the session
// (`rig/<i>.glb`, the `--onto` rig or a glTF clip with a skin given on the command line), parsed by three's
// GLTFLoader and copied per character (SkeletonUtils.clone: the copies share geometry and materials).
//
// The frames carry every skeleton joint's world transform W_j (flinch's `Character::world_transforms`: the
// simulated bodies at their joints, merged bones with the clip's local motion). flinch's joints are rigid and in
// metres while the file's nodes may carry scales and another unit, so each joint's node gets the world matrix
// W_j(t) · W_j(rest)⁻¹ · N_j(rest): the joint's motion from its rest frame (sent in the scene message) applied to
// the node's rest world matrix N_j(rest) in the page (the file's scene scaled to metres and turned Y-up as the
// import did). At rest this is the file's own pose; the nodes keep these matrices (their matrixWorldAutoUpdate
// is off), nodes below them follow as usual, and the skin is deformed by three as for any animation.
import * as THREE from './three.module.min.js';
import { GLTFLoader } from './GLTFLoader.js';
import * as SkeletonUtils from './SkeletonUtils.js';

const _p = new THREE.Vector3();
const _q = new THREE.Quaternion();
const _one = new THREE.Vector3(1, 1, 1);

// A rig as loaded: its default scene with every node tagged with its glTF index (`userData.flinchNode`, kept by
// clones), the materials made Lambert (a fraction of the physically based cost in a software renderer, and the
// capsules' look) and culling off (the skinned vertices leave the rest pose's bounds).
function prepare(gltf) {
  const lambert = new Map();
  const toLambert = (m) => {
    if (!lambert.has(m)) {
      lambert.set(m, new THREE.MeshLambertMaterial({
        color: m.color ? m.color.clone() : new THREE.Color(0xcccccc),
        map: m.map || null,
        vertexColors: !!m.vertexColors,
        transparent: !!m.transparent,
        opacity: m.opacity === undefined ? 1 : m.opacity,
        side: m.side === undefined ? THREE.FrontSide : m.side,
        // GLTFLoader shades a mesh without normals flat (the Fox has none): without it, Lambert draws it black.
        flatShading: !!m.flatShading,
        alphaTest: m.alphaTest || 0,
      }));
    }
    return lambert.get(m);
  };
  gltf.scene.traverse((o) => {
    const a = gltf.parser.associations.get(o);
    if (a && a.nodes !== undefined) o.userData.flinchNode = a.nodes;
    if (o.isMesh) {
      o.frustumCulled = false;
      o.material = Array.isArray(o.material) ? o.material.map(toLambert) : toLambert(o.material);
    }
  });
  return gltf.scene;
}

// One character's copy of a rig under `group`: the copy in a holder that scales the file's unit to metres and
// turns a Z-up file Y-up, and per driven joint its node and offset W_j(rest)⁻¹ · N_j(rest).
function instance(template, rig, skin, group) {
  const root = SkeletonUtils.clone(template);
  const holder = new THREE.Group();
  holder.scale.setScalar(rig.metres_per_unit);
  if (rig.z_up) holder.rotation.x = -Math.PI / 2;
  holder.add(root);
  holder.visible = false;
  group.add(holder);
  group.updateMatrixWorld(true);
  const toGroup = new THREE.Matrix4().copy(group.matrixWorld).invert();
  const byNode = new Map();
  root.traverse((o) => { if (o.userData.flinchNode !== undefined) byNode.set(o.userData.flinchNode, o); });
  const joints = [];
  skin.nodes.forEach((node, j) => {
    const object = node === null ? undefined : byNode.get(node);
    const r = skin.rest[j];
    if (!object || !r) return;
    const rest = new THREE.Matrix4().compose(_p.set(r[0], r[1], r[2]), _q.set(r[3], r[4], r[5], r[6]), _one);
    const nodeRest = new THREE.Matrix4().multiplyMatrices(toGroup, object.matrixWorld);
    const offset = rest.invert().multiply(nodeRest);
    object.matrixAutoUpdate = false;
    object.matrixWorldAutoUpdate = false;
    joints.push({ index: j, object, offset });
  });
  return { holder, joints, posed: false };
}

export class Skins {
  // `changed`: called when a rig finished loading (the drawing redraws).
  constructor(changed) {
    this.loader = new GLTFLoader();
    this.rigs = new Map();
    this.group = new THREE.Group();
    this.characters = [];
    this.epoch = 0;
    this.changed = changed;
    // For the page's status and the tests: skinned characters in the scene, copies placed, the last error.
    this.status = { expected: 0, loaded: 0, error: null, rigs: 0 };
  }

  // The rig of a `rigs[i]` entry of the scene message, fetched and parsed once per page.
  rig(desc) {
    let p = this.rigs.get(desc.url);
    if (!p) {
      p = fetch(desc.url, { cache: 'no-store' })
        .then((r) => {
          if (!r.ok) throw new Error(`${desc.url}: HTTP ${r.status}`);
          return r.arrayBuffer();
        })
        .then((bytes) => this.loader.parseAsync(bytes, ''))
        .then(prepare);
      this.rigs.set(desc.url, p);
    }
    return p;
  }

  // A new scene message: the copies of the previous one are dropped, one per skinned character is made (when its
  // rig has loaded) under a new group added to `world`.
  setScene(desc, world) {
    this.epoch++;
    const epoch = this.epoch;
    const visible = this.group.visible;
    this.group = new THREE.Group();
    this.group.visible = visible;
    world.add(this.group);
    this.characters = desc.characters.map(() => null);
    this.lastFrame = null;
    const rigs = desc.rigs || [];
    const skinned = desc.characters.map((ch, ci) => ({ ch, ci })).filter(({ ch }) => ch.skin && rigs[ch.skin.rig]);
    this.status = { expected: skinned.length, loaded: 0, error: null, rigs: rigs.length };
    for (const { ch, ci } of skinned) {
      const rig = rigs[ch.skin.rig];
      this.rig(rig).then((template) => {
        if (epoch !== this.epoch) return;
        this.characters[ci] = instance(template, rig, ch.skin, this.group);
        if (this.lastFrame) this.applyFrame(this.lastFrame);
        this.status.loaded++;
        this.changed();
      }).catch((e) => {
        if (epoch !== this.epoch) return;
        this.status.error = String(e && e.message || e);
        this.changed();
      });
    }
  }

  // Whether character `ci` is drawn with a skin (its copy is placed).
  has(ci) { return !!this.characters[ci]; }

  set visible(v) { this.group.visible = v; }

  // Poses each copy from a decoded frame's bones: node world = W_j(t) · offset_j. A copy is shown from its first
  // posed frame on (before it, it would stand in the file's rest pose at the origin).
  applyFrame(frame) {
    this.lastFrame = frame;
    const n = Math.min(frame.characters.length, this.characters.length);
    for (let ci = 0; ci < n; ci++) {
      const inst = this.characters[ci];
      const bones = frame.characters[ci].bones;
      if (!inst) continue;
      if (!bones || bones.length === 0) { inst.holder.visible = false; continue; }
      for (const jt of inst.joints) {
        const o = 7 * jt.index;
        if (o + 7 > bones.length) continue;
        _p.set(bones[o], bones[o + 1], bones[o + 2]);
        _q.set(bones[o + 3], bones[o + 4], bones[o + 5], bones[o + 6]);
        jt.object.matrixWorld.compose(_p, _q, _one).multiply(jt.offset);
      }
      inst.holder.visible = true;
      inst.posed = true;
    }
  }
}
