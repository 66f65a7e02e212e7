/* global document, window, requestAnimationFrame */
// The simulated camera's picture: colour bars sliding by, the device's name and SN, and the clock,
// until the address's expiry time.
const params = new URLSearchParams(window.location.search);
const expires = Number(params.get('expires')) || 0;
const canvas = document.getElementById('screen');
const ctx = canvas.getContext('2d');
document.getElementById('label').textContent = `● LIVE  ${params.get('name') ?? ''} (${params.get('sn') ?? ''})`;
const colors = ['#c0c0c0', '#c0c000', '#00c0c0', '#00c000', '#c000c0', '#c00000', '#0000c0'];

function frame(t) {
  if (expires && Date.now() > expires) {
    document.getElementById('expired').style.display = 'flex';
    return;
  }
  canvas.width = canvas.clientWidth;
  canvas.height = canvas.clientHeight;
  const w = canvas.width / colors.length;
  const shift = (t / 40) % canvas.width;
  colors.forEach((c, i) => {
    ctx.fillStyle = c;
    ctx.fillRect((i * w + shift) % canvas.width, 0, w + 1, canvas.height * 0.75);
  });
  ctx.fillStyle = '#111';
  ctx.fillRect(0, canvas.height * 0.75, canvas.width, canvas.height * 0.25);
  ctx.fillStyle = '#fff';
  ctx.font = `${Math.max(16, canvas.height / 14)}px monospace`;
  ctx.fillText(new Date().toLocaleString(), 16, canvas.height * 0.9);
  requestAnimationFrame(frame);
}
requestAnimationFrame(frame);
