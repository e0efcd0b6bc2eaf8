import { startTestApp, tempDir } from '../support/test-app.js';
it('starts', async () => {
  const tmp = tempDir();
  const times: string[] = [];
  for (let i = 0; i < 6; i++) {
    const t0 = Date.now();
    const app = await startTestApp({ dbPath: `${tmp.dir}/chat${i}.sqlite` });
    const t1 = Date.now();
    await app.close();
    const t2 = Date.now();
    const again = await startTestApp({ dbPath: `${tmp.dir}/chat${i}.sqlite` });
    const t3 = Date.now();
    await again.close();
    times.push(`fresh ${t1 - t0} close ${t2 - t1} reopen ${t3 - t2}`);
  }
  tmp.remove();
  console.log(times.join('\n'));
}, 120000);
