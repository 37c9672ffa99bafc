// The command line of `npm run station:web` (scripts/station-web-options.ts): training as before,
// another exchange with its options, plain http only on loopback, the secret only from a file.
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../../scripts/start-support';
import { checkExchangeUrl, isLoopbackHost, parseStationWebArgs, readClientSecret } from '../../../scripts/station-web-options';

const refusal = (run: () => unknown): string => {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return (error as Error).message;
  }
  throw new Error('expected a usage error');
};

describe('station:web staff', () => {
  it('provisions --staff "NAME:PIN" nurses and --admin administrators, repeatable, in either mode', () => {
    const plan = parseStationWebArgs(['--port', '8300', '--staff', 'Amina Wekesa:4821', '--staff', 'Baraka: Otieno:9034', '--admin', 'IT officer:771199']);
    expect(plan.staff).toEqual([
      { name: 'Amina Wekesa', role: 'nurse', pin: '4821' },
      { name: 'Baraka: Otieno', role: 'nurse', pin: '9034' },
      { name: 'IT officer', role: 'administrator', pin: '771199' },
    ]);
    expect(parseStationWebArgs(['--port', '8300', '--exchange', 'https://x.example.org', '--staff', 'A:1234']).staff).toEqual([{ name: 'A', role: 'nurse', pin: '1234' }]);
  });

  it('refuses a staff spec without a name or with a bad PIN, and a PIN two people would share', () => {
    expect(refusal(() => parseStationWebArgs(['--port', '1', '--staff', '4821']))).toMatch(/"NAME:PIN"/);
    expect(refusal(() => parseStationWebArgs(['--port', '1', '--staff', 'Amina:12']))).toMatch(/4 to 20 letters or digits/);
    expect(refusal(() => parseStationWebArgs(['--port', '1', '--staff', 'A:4821', '--admin', 'B:4821']))).toMatch(/share a PIN/);
    expect(refusal(() => parseStationWebArgs(['--port', '1', '--staff', 'A:1234']))).toMatch(/Training nurse/);
  });
});

describe('station:web in training', () => {
  it('keeps its form: the sandbox on N+1 unless told, a data folder when given', () => {
    expect(parseStationWebArgs(['--port', '8300'])).toEqual({ mode: 'training', port: 8300, sandboxPort: 8301, dataDir: undefined, staff: [] });
    expect(parseStationWebArgs(['--port', '0', '--data-dir', '/tmp/x'])).toEqual({ mode: 'training', port: 0, sandboxPort: 0, dataDir: '/tmp/x', staff: [] });
    expect(refusal(() => parseStationWebArgs(['--port', '8300', '--sandbox-port', '8300']))).toMatch(/must differ/);
    expect(refusal(() => parseStationWebArgs(['--port', '8300', '--client-id', 'x']))).toBe('unknown option --client-id');
  });

  it('gives the sandbox a ward’s network with --profile ward, and only in training', () => {
    expect(parseStationWebArgs(['--port', '8300', '--profile', 'ward'])).toMatchObject({ mode: 'training', profile: 'ward' });
    expect(refusal(() => parseStationWebArgs(['--port', '8300', '--profile', 'village']))).toBe('--profile must be one of ward, got village');
    expect(refusal(() => parseStationWebArgs(['--port', '8300', '--exchange', 'https://exchange.example.org', '--profile', 'ward']))).toBe('unknown option --profile');
  });
});

describe('station:web against another exchange', () => {
  it('reads every option of the exchange form', () => {
    expect(
      parseStationWebArgs([
        '--port',
        '8300',
        '--exchange',
        'https://uat.exchange.example.org/hie/',
        '--client-id',
        'FID-1',
        '--client-secret-file',
        '/etc/idhini/secret',
        '--facility-code',
        'FID-00-000004-0',
        '--facility-name',
        'Demo Hospital',
        '--agent-id',
        '22334455',
        '--link-origins',
        'https://portal.example.org, https://uat.exchange.example.org',
        '--reader',
        'hardware-service',
        '--device-service-port',
        '18066',
      ]),
    ).toEqual({
      mode: 'exchange',
      port: 8300,
      exchangeUrl: 'https://uat.exchange.example.org/hie',
      clientId: 'FID-1',
      clientSecretFile: '/etc/idhini/secret',
      facilityCode: 'FID-00-000004-0',
      facilityName: 'Demo Hospital',
      agentNationalId: '22334455',
      linkOrigins: ['https://portal.example.org', 'https://uat.exchange.example.org'],
      reader: 'hardware-service',
      deviceServicePort: 18066,
      dataDir: undefined,
      staff: [],
    });
  });

  it('takes the contract’s minimal form, and the exchange alone', () => {
    expect(parseStationWebArgs(['--port', '0', '--exchange', 'http://127.0.0.1:9000', '--client-id', 'c', '--client-secret-file', 'f'])).toMatchObject({
      mode: 'exchange',
      exchangeUrl: 'http://127.0.0.1:9000',
      clientId: 'c',
      clientSecretFile: 'f',
      facilityCode: undefined,
      linkOrigins: undefined,
    });
    expect(parseStationWebArgs(['--port', '0', '--exchange', 'https://x.example.org'])).toMatchObject({ clientId: undefined, clientSecretFile: undefined });
  });

  it('refuses a secret on the command line, half the credentials, a sandbox port, an unknown reader', () => {
    const base = ['--port', '0', '--exchange', 'https://x.example.org'];
    expect(refusal(() => parseStationWebArgs([...base, '--client-id', 'c', '--client-secret', 's3cret']))).toMatch(/^--client-secret is not accepted.*--client-secret-file FILE$/);
    expect(refusal(() => parseStationWebArgs([...base, '--client-secret=s3cret']))).not.toContain('s3cret');
    expect(refusal(() => parseStationWebArgs([...base, '--client-id', 'c']))).toMatch(/go together/);
    expect(refusal(() => parseStationWebArgs([...base, '--client-secret-file', 'f']))).toMatch(/go together/);
    expect(refusal(() => parseStationWebArgs([...base, '--sandbox-port', '9']))).toMatch(/no sandbox is started/);
    expect(refusal(() => parseStationWebArgs([...base, '--reader', 'virtual']))).toMatch(/--reader must be one of auto, hardware-service, station-reader/);
    expect(refusal(() => parseStationWebArgs(['--exchange', 'https://x.example.org']))).toBe('--port N is required');
  });
});

describe('the exchange URL', () => {
  it('is https anywhere, or plain http on loopback only', () => {
    expect(checkExchangeUrl('https://exchange.example.org')).toBe('https://exchange.example.org');
    for (const url of ['http://127.0.0.1:9000', 'http://127.3.4.5:80/api', 'http://localhost:9000', 'http://[::1]:9000', 'http://0x7f.0.0.1:9000']) {
      expect(() => checkExchangeUrl(url), url).not.toThrow();
    }
    for (const url of ['http://exchange.example.org', 'http://10.0.0.5:8080', 'http://128.0.0.1', 'http://localhost.example.org', 'http://[::2]:9000']) {
      expect(refusal(() => checkExchangeUrl(url)), url).toMatch(/plain http is accepted only on loopback/);
    }
  });

  it('refuses what is not an http(s) base URL, credentials in it, a query or fragment', () => {
    expect(refusal(() => checkExchangeUrl('exchange.example.org'))).toMatch(/must be a URL/);
    expect(refusal(() => checkExchangeUrl('ftp://exchange.example.org'))).toMatch(/https \(or http on loopback\), got ftp/);
    expect(refusal(() => checkExchangeUrl('https://id:secret@exchange.example.org'))).toMatch(/must not carry credentials/);
    expect(refusal(() => checkExchangeUrl('https://exchange.example.org/?tenant=x'))).toMatch(/no query or fragment/);
  });

  it('knows loopback hosts as the URL parser writes them', () => {
    expect(isLoopbackHost('127.0.0.1')).toBe(true);
    expect(isLoopbackHost('[::1]')).toBe(true);
    expect(isLoopbackHost('LOCALHOST')).toBe(true);
    expect(isLoopbackHost('127.0.0.1.nip.io')).toBe(false);
  });
});

describe('the client secret file', () => {
  const from = (text: string) => () => text;

  it('holds the secret alone on its line', () => {
    expect(readClientSecret('f', from('s3cret\n'))).toBe('s3cret');
    expect(readClientSecret('f', from('  s3cret\r\n'))).toBe('s3cret');
  });

  it('is refused empty, with more than one line, or unreadable, naming the file and never its content', () => {
    expect(refusal(() => readClientSecret('/run/secret', from(' \n')))).toBe('the client secret file /run/secret is empty');
    const twoLines = refusal(() => readClientSecret('/run/secret', from('s3cret\nmore\n')));
    expect(twoLines).toMatch(/holds more than one line/);
    expect(twoLines).not.toContain('s3cret');
    const missing = refusal(() =>
      readClientSecret('/run/none', () => {
        throw Object.assign(new Error('ENOENT: no such file'), { code: 'ENOENT' });
      }),
    );
    expect(missing).toBe('cannot read the client secret file /run/none (ENOENT)');
  });
});
