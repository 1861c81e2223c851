/** The prize wheel drawn on a canvas: equal slices in their colours with their labels, rotated
 * by `angle` (radians, clockwise), with a pointer at the top; the won slice (`highlight`) is lit
 * and ringed in gold once the wheel has stopped. */
import { useEffect, useRef } from 'react';

export type WheelSlice = { code: string; label: string; bgColor: string; textColor: string };

type Props = {
  slices: readonly WheelSlice[];
  angle: number;
  size: number;
  label: string;
  /** The index of the slice to light up (the prize), or null. */
  highlight?: number | null;
};

export function WheelCanvas({ slices, angle, size, label, highlight = null }: Props) {
  const ref = useRef<HTMLCanvasElement>(null);

  useEffect(() => {
    const canvas = ref.current;
    const ctx = canvas?.getContext('2d');
    if (!canvas || !ctx || slices.length === 0) return;
    const ratio = window.devicePixelRatio || 1;
    canvas.width = size * ratio;
    canvas.height = size * ratio;
    ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
    const radius = size / 2 - 4;
    const centre = size / 2;
    const segment = (Math.PI * 2) / slices.length;
    ctx.clearRect(0, 0, size, size);
    ctx.save();
    ctx.translate(centre, centre);
    ctx.rotate(angle);
    slices.forEach((slice, index) => {
      // Slice 0 starts at the top (−90°) and slices follow clockwise.
      const start = -Math.PI / 2 + index * segment;
      ctx.beginPath();
      ctx.moveTo(0, 0);
      ctx.arc(0, 0, radius, start, start + segment);
      ctx.closePath();
      ctx.fillStyle = slice.bgColor;
      ctx.fill();
      ctx.strokeStyle = '#ffffff';
      ctx.lineWidth = 2;
      ctx.stroke();
      if (index === highlight) {
        ctx.fillStyle = 'rgb(255 255 255 / 0.28)';
        ctx.fill();
        ctx.strokeStyle = '#ffd35c';
        ctx.lineWidth = 6;
        ctx.stroke();
      }
      ctx.save();
      ctx.rotate(start + segment / 2);
      ctx.fillStyle = slice.textColor;
      ctx.font = `600 ${Math.max(11, Math.round(size / 24))}px system-ui, sans-serif`;
      ctx.textAlign = 'right';
      ctx.textBaseline = 'middle';
      ctx.fillText(slice.label, radius - 12, 0, radius * 0.6);
      ctx.restore();
    });
    ctx.restore();
    // The pointer.
    ctx.beginPath();
    ctx.moveTo(centre - 12, 2);
    ctx.lineTo(centre + 12, 2);
    ctx.lineTo(centre, 26);
    ctx.closePath();
    ctx.fillStyle = '#111827';
    ctx.fill();
  }, [slices, angle, size, highlight]);

  return (
    <canvas
      ref={ref}
      role="img"
      aria-label={label}
      style={{ width: size, height: size }}
      className="wheel-canvas"
    />
  );
}
