// The 3D view: characters as their collision capsules (simulated: solid; the clip: a translucent ghost), balls,
// the floor or the level, an orbit camera that can follow a character.
import * as THREE from './three.module.min.js';
import { OrbitControls } from './OrbitControls.js';

const SIM_COLOR = 0xd9503f;
const GHOST_COLOR = 0x4f8fe0;

export class Drawing {
  constructor(container) {
    this.renderer = new THREE.WebGLRenderer({ antialias: true, preserveDrawingBuffer: true });
    this.renderer.setPixelRatio(Math.min(window.devicePixelRatio, 2));
    this.renderer.setSize(container.clientWidth, container.clientHeight);
    container.appendChild(this.renderer.domElement);
    this.scene = new THREE.Scene();
    this.scene.background = new THREE.Color(0x20242b);
    this.camera = new THREE.PerspectiveCamera(45, container.clientWidth / container.clientHeight, 0.05, 500);
    this.camera.position.set(3.5, 2.0, 3.5);
    this.controls = new OrbitControls(this.camera, this.renderer.domElement);
    this.controls.target.set(0, 0.9, 0);
    this.controls.enableDamping = false;
    this.scene.add(new THREE.HemisphereLight(0xffffff, 0x404050, 2.2));
    const sun = new THREE.DirectionalLight(0xffffff, 1.6);
    sun.position.set(4, 8, 3);
    this.scene.add(sun);
    this.world = new THREE.Group();
    this.scene.add(this.world);
    this.characters = [];
    this.balls = [];
    this.ballGeometry = new THREE.SphereGeometry(1, 20, 14);
    this.ballMaterial = new THREE.MeshStandardMaterial({ color: 0xf0d060, roughness: 0.5 });
    this.simMaterial = new THREE.MeshStandardMaterial({ color: SIM_COLOR, roughness: 0.6 });
    this.ghostMaterial = new THREE.MeshStandardMaterial({ color: GHOST_COLOR, transparent: true, opacity: 0.28,
      depthWrite: false });
    this.raycaster = new THREE.Raycaster();
    window.addEventListener('resize', () => {
      this.camera.aspect = container.clientWidth / container.clientHeight;
      this.camera.updateProjectionMatrix();
      this.renderer.setSize(container.clientWidth, container.clientHeight);
    });
  }

  // A capsule mesh from a to b (body frame) of radius r.
  capsule(c, material) {
    const a = new THREE.Vector3(c[0], c[1], c[2]);
    const b = new THREE.Vector3(c[3], c[4], c[5]);
    const len = a.distanceTo(b);
    const mesh = new THREE.Mesh(new THREE.CapsuleGeometry(c[6], len, 3, 10), material);
    mesh.position.copy(a).add(b).multiplyScalar(0.5);
    if (len > 1e-9) {
      mesh.quaternion.setFromUnitVectors(new THREE.Vector3(0, 1, 0), b.clone().sub(a).normalize());
    }
    return mesh;
  }

  // Rebuilds everything from a `scene` message.
  setScene(desc) {
    this.scene.remove(this.world);
    this.world.traverse((o) => { if (o.geometry && o.geometry !== this.ballGeometry) o.geometry.dispose(); });
    this.world = new THREE.Group();
    this.scene.add(this.world);
    this.characters = desc.characters.map((ch, ci) => {
      const build = (material, pickable) => ch.bodies.map((body, bi) => {
        const node = new THREE.Group();
        for (const c of body.capsules) {
          const m = this.capsule(c, material);
          if (pickable) m.userData = { character: ci, body: bi };
          node.add(m);
        }
        this.world.add(node);
        return node;
      });
      return { sim: build(this.simMaterial, true), ghost: build(this.ghostMaterial, false), bodies: ch.bodies };
    });
    if (desc.level) {
      const g = new THREE.BufferGeometry();
      g.setAttribute('position', new THREE.Float32BufferAttribute(desc.level.positions, 3));
      g.setIndex(desc.level.indices);
      g.computeVertexNormals();
      const level = new THREE.Mesh(g, new THREE.MeshStandardMaterial({ color: 0x8a8f98, roughness: 0.9,
        side: THREE.DoubleSide, flatShading: true }));
      this.world.add(level);
    } else {
      const floor = new THREE.Mesh(new THREE.PlaneGeometry(60, 60),
        new THREE.MeshStandardMaterial({ color: 0x3a4048, roughness: 1 }));
      floor.rotation.x = -Math.PI / 2;
      floor.position.y = desc.floor - 0.002;
      this.world.add(floor);
      const grid = new THREE.GridHelper(60, 60, 0x667080, 0x4a525e);
      grid.position.y = desc.floor;
      this.world.add(grid);
    }
    this.balls = [];
  }

  setGhost(visible) {
    for (const c of this.characters) for (const n of c.ghost) n.visible = visible;
  }

  // Places the bodies and balls of a decoded frame.
  applyFrame(frame, ghost) {
    frame.characters.forEach((cf, ci) => {
      const ch = this.characters[ci];
      if (!ch) return;
      const place = (nodes, data) => nodes.forEach((node, b) => {
        const o = 7 * b;
        node.position.set(data[o], data[o + 1], data[o + 2]);
        node.quaternion.set(data[o + 3], data[o + 4], data[o + 5], data[o + 6]);
      });
      place(ch.sim, cf.sim);
      if (ghost) place(ch.ghost, cf.ghost);
    });
    while (this.balls.length < frame.balls.length) {
      const m = new THREE.Mesh(this.ballGeometry, this.ballMaterial);
      this.world.add(m);
      this.balls.push(m);
    }
    this.balls.forEach((m, i) => {
      const b = frame.balls[i];
      m.visible = !!b;
      if (b) { m.position.set(b[0], b[1], b[2]); m.scale.setScalar(b[3]); }
    });
  }

  // Moves the orbit target toward a character's root body.
  follow(ci) {
    const ch = this.characters[ci];
    if (!ch || !ch.sim[0]) return;
    const p = ch.sim[0].position;
    const t = this.controls.target;
    const dx = (p.x - t.x) * 0.1;
    const dz = (p.z - t.z) * 0.1;
    t.x += dx; t.z += dz;
    this.camera.position.x += dx; this.camera.position.z += dz;
  }

  // The camera ray through a page point (client pixels).
  ray(clientX, clientY) {
    const r = this.renderer.domElement.getBoundingClientRect();
    const ndc = new THREE.Vector2(((clientX - r.left) / r.width) * 2 - 1, -((clientY - r.top) / r.height) * 2 + 1);
    this.raycaster.setFromCamera(ndc, this.camera);
    return this.raycaster.ray;
  }

  // The simulated body under a page point: {character, body, point (world), local (body frame)} or null.
  pick(clientX, clientY) {
    this.ray(clientX, clientY);
    const meshes = [];
    for (const ch of this.characters) for (const n of ch.sim) meshes.push(...n.children);
    const hit = this.raycaster.intersectObjects(meshes, false)[0];
    if (!hit) return null;
    const { character, body } = hit.object.userData;
    const node = this.characters[character].sim[body];
    const local = node.worldToLocal(hit.point.clone());
    return { character, body, point: hit.point, local };
  }

  // The page point (client pixels) of a body's capsule middle, for tests and the screenshot.
  screenPoint(ci, name) {
    const ch = this.characters[ci];
    if (!ch) return null;
    const b = ch.bodies.findIndex((x) => x.name === name);
    if (b < 0) return null;
    const mesh = ch.sim[b].children[0];
    const p = mesh ? mesh.getWorldPosition(new THREE.Vector3()) : ch.sim[b].position.clone();
    p.project(this.camera);
    const r = this.renderer.domElement.getBoundingClientRect();
    return { x: r.left + (p.x + 1) / 2 * r.width, y: r.top + (1 - p.y) / 2 * r.height };
  }

  // Puts the camera 3 m from a body on the side it sticks out to (the right forearm from the right), level with
  // it, looking at it.
  viewBone(ci, name) {
    const ch = this.characters[ci];
    if (!ch) return false;
    const b = ch.bodies.findIndex((x) => x.name === name);
    if (b < 0) return false;
    const mesh = ch.sim[b].children[0] || ch.sim[b];
    const p = mesh.getWorldPosition(new THREE.Vector3());
    const root = ch.sim[0].position;
    const side = new THREE.Vector3(p.x - root.x, 0, p.z - root.z);
    if (side.lengthSq() < 1e-6) side.set(1, 0, 0);
    side.normalize();
    this.camera.position.set(p.x + side.x * 3, p.y + 0.4, p.z + side.z * 3);
    this.controls.target.copy(p);
    this.controls.update();
    return true;
  }

  render() {
    this.controls.update();
    this.renderer.render(this.scene, this.camera);
  }
}
