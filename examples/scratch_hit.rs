use flinch::control::*;
fn main() {
    let args: Vec<f64> = std::env::args()
        .skip(1)
        .map(|a| a.parse().unwrap())
        .collect();
    let imp = flinch::io::load_embedded_walk(&Default::default()).unwrap();
    let mut cfg = CharacterConfig::default();
    if args.len() >= 4 {
        cfg.gains = Gains {
            k_s: args[0],
            k_d: args[1],
            load_factor: args[2],
            k_min: None,
            d_min: if args[3] > 0.0 { Some(args[3]) } else { None },
        };
    }
    let mut c = Character::from_imported(imp, &cfg).unwrap();
    let opts = EvalOptions {
        hits: vec![Hit {
            bone: "RightForeArm".into(),
            time: 1.0,
            impulse: nalgebra::Vector3::new(args[4], args[5], args[6]) * 6.75,
            point: None,
        }],
        ..Default::default()
    };
    let e = evaluate(&mut c, &opts).unwrap();
    for (i, (t, d)) in e.deviation.iter().enumerate() {
        if i % 6 == 0 && *t > 0.95 {
            print!("{t:.2}:{d:.1} ");
        }
    }
    println!();
    println!("{:?}", e.hit);
    for b in 1..c.model().bodies.len() {
        print!(
            "{}:{:.1} ",
            c.model().bodies[b].name,
            flinch::math::rotation_distance(&c.joint_rotation(b), &c.reference_rotation(b))
                .to_degrees()
        );
    }
    println!();
}
#[allow(dead_code)]
fn unused() {}
