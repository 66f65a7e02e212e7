import { useEffect, useRef } from 'react';
import { usePrefersReducedMotion } from '../../lib/reduced-motion';

interface Props {
  background: string;
  particle: string;
}

interface Particle {
  x: number;
  y: number;
  vx: number;
  vy: number;
  r: number;
}

const LINK_DISTANCE = 120;

/** "#409EFF" + alpha → "rgba(64,158,255,a)" for the connecting lines. */
function withAlpha(hex: string, alpha: number): string {
  const m = /^#?([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex);
  if (!m) return `rgba(255,255,255,${alpha})`;
  const [r, g, b] = [m[1], m[2], m[3]].map((h) => parseInt(h ?? '0', 16));
  return `rgba(${r},${g},${b},${alpha})`;
}

/** The login page's moving particle network, drawn on one canvas (no library). */
export function ParticleBackground({ background, particle }: Props) {
  const ref = useRef<HTMLCanvasElement>(null);
  const still = usePrefersReducedMotion();

  useEffect(() => {
    const canvas = ref.current;
    const ctx = canvas?.getContext('2d');
    if (!canvas || !ctx) return;
    let particles: Particle[] = [];
    let frame = 0;
    const pointer = { x: -1000, y: -1000 };

    const resize = () => {
      const dpr = window.devicePixelRatio || 1;
      const { innerWidth: w, innerHeight: h } = window;
      canvas.width = w * dpr;
      canvas.height = h * dpr;
      canvas.style.width = `${w}px`;
      canvas.style.height = `${h}px`;
      ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
      const count = Math.min(140, Math.round((w * h) / 11000));
      particles = Array.from({ length: count }, () => ({
        x: Math.random() * w,
        y: Math.random() * h,
        vx: (Math.random() - 0.5) * 0.6,
        vy: (Math.random() - 0.5) * 0.6,
        r: 1 + Math.random() * 2,
      }));
    };

    const draw = () => {
      const { innerWidth: w, innerHeight: h } = window;
      ctx.fillStyle = background;
      ctx.fillRect(0, 0, w, h);
      for (const p of particles) {
        if (!still) {
          p.x += p.vx;
          p.y += p.vy;
          if (p.x < 0 || p.x > w) p.vx = -p.vx;
          if (p.y < 0 || p.y > h) p.vy = -p.vy;
        }
        ctx.beginPath();
        ctx.arc(p.x, p.y, p.r, 0, Math.PI * 2);
        ctx.fillStyle = particle;
        ctx.fill();
      }
      const linked = [...particles, { ...pointer, vx: 0, vy: 0, r: 0 }];
      for (let i = 0; i < linked.length; i++) {
        for (let j = i + 1; j < linked.length; j++) {
          const a = linked[i] as Particle;
          const b = linked[j] as Particle;
          const d = Math.hypot(a.x - b.x, a.y - b.y);
          if (d < LINK_DISTANCE) {
            ctx.strokeStyle = withAlpha(particle, 0.5 * (1 - d / LINK_DISTANCE));
            ctx.lineWidth = 1;
            ctx.beginPath();
            ctx.moveTo(a.x, a.y);
            ctx.lineTo(b.x, b.y);
            ctx.stroke();
          }
        }
      }
      if (!still) frame = requestAnimationFrame(draw);
    };

    const onMove = (e: PointerEvent) => {
      pointer.x = e.clientX;
      pointer.y = e.clientY;
    };
    const onResize = () => {
      resize();
      if (still) draw();
    };

    resize();
    draw();
    window.addEventListener('resize', onResize);
    window.addEventListener('pointermove', onMove);
    return () => {
      cancelAnimationFrame(frame);
      window.removeEventListener('resize', onResize);
      window.removeEventListener('pointermove', onMove);
    };
  }, [background, particle, still]);

  return (
    <canvas
      ref={ref}
      aria-hidden="true"
      style={{ position: 'fixed', inset: 0, zIndex: 0, display: 'block', background }}
    />
  );
}
