import { SMTPServer } from 'smtp-server';

/** A local SMTP server keeping what it is sent (the mail provider, replaced at its edge). */
export async function smtpSink() {
  const mails: { to: string[]; data: string }[] = [];
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        mails.push({ to: session.envelope.rcptTo.map((r) => r.address), data: Buffer.concat(chunks).toString('utf8') });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  return {
    mails,
    url: `smtp://127.0.0.1:${(smtp.server.address() as { port: number }).port}`,
    close: () => new Promise<void>((resolve) => smtp.close(() => resolve())),
  };
}
