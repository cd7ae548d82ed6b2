import { WebhookHostUnresolvedError, WebhookUrlRefusedError, vetWebhookUrl, type HostResolver } from '../../../../src/common/webhooks/webhook-url-policy';

const resolvesTo =
  (...addresses: string[]): HostResolver =>
  async () =>
    addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));

const live = { allowInsecureSandbox: true, resolve: resolvesTo('93.184.215.14') };
const sandbox = { allowInsecureSandbox: true, resolve: resolvesTo('93.184.215.14') };

describe('live endpoints', () => {
  it.each([
    ['http://127.0.0.1/hook', 'must use https for a live endpoint'],
    ['http://169.254.169.254/latest/meta-data', 'must use https for a live endpoint'],
    ['https://127.0.0.1/hook', 'a loopback address (127.0.0.1)'],
    ['https://169.254.169.254/latest/meta-data', 'a cloud metadata address (169.254.169.254)'],
    ['https://[fd00:ec2::254]/', 'a cloud metadata address'],
    ['https://[::1]/hook', 'a loopback address'],
    ['https://[::ffff:127.0.0.1]/hook', 'a loopback address'],
    ['https://169.254.10.1/', 'a link-local address'],
    ['https://[fe80::1]/', 'a link-local address'],
    ['https://172.20.0.5/', 'a private address'],
    ['https://192.168.1.1/', 'a private address'],
    ['https://[fc00::1]/', 'a private address'],
    ['https://100.64.0.1/', 'a shared (CGNAT) address'],
    ['https://0.0.0.0/', '"this network" address'],
    ['https://224.0.0.1/', 'a multicast address'],
    ['https://[64:ff9b::7f00:1]/', 'a NAT64 address'],
    ['https://[2002:7f00:1::]/', 'a 6to4 address'],
    ['https://[2001::1]/', 'a Teredo address'],
    ['https://192.0.2.10/', 'a reserved or documentation address'],
    ['https://198.51.100.7/', 'a reserved or documentation address'],
    ['https://203.0.113.9/', 'a reserved or documentation address'],
    ['https://[2001:db8::1]/', 'a reserved or documentation address'],
    ['https://255.255.255.255/', 'a broadcast address'],
    ['https://user:pass@example.com/', 'must not contain credentials'],
    ['not a url', 'must be an absolute URL'],
  ])('refuses %s', async (url, reason) => {
    const refused = vetWebhookUrl(url, 'live', live);
    await expect(refused).rejects.toThrow(WebhookUrlRefusedError);
    await expect(refused).rejects.toThrow(reason);
  });

  it('refuses a hostname that resolves to a private 10.x address', async () => {
    await expect(vetWebhookUrl('https://internal.example.com/hook', 'live', { allowInsecureSandbox: true, resolve: resolvesTo('10.1.2.3') })).rejects.toThrow(
      'internal.example.com resolves to a private address (10.1.2.3)',
    );
  });

  it('refuses a hostname when any one of its addresses is forbidden', async () => {
    const resolve = resolvesTo('93.184.215.14', '10.0.0.1');
    await expect(vetWebhookUrl('https://mixed.example.com/', 'live', { allowInsecureSandbox: false, resolve })).rejects.toThrow('10.0.0.1');
  });

  it('accepts https to a public address, and pins the address it vetted', async () => {
    const target = await vetWebhookUrl('https://hooks.example.com/assay', 'live', live);
    expect(target.url.hostname).toBe('hooks.example.com');
    expect(target.address).toEqual({ address: '93.184.215.14', family: 4 });
  });

  it('reports a name that does not resolve as unresolved, not as refused', async () => {
    const resolve: HostResolver = async () => {
      throw Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' });
    };
    await expect(vetWebhookUrl('https://nowhere.invalid/', 'live', { allowInsecureSandbox: false, resolve })).rejects.toThrow(WebhookHostUnresolvedError);
  });
});

describe('sandbox endpoints', () => {
  it('may use http and loopback when the operator allows it', async () => {
    await expect(vetWebhookUrl('http://127.0.0.1:8080/hook', 'test', sandbox)).resolves.toMatchObject({ address: { address: '127.0.0.1' } });
  });

  it('still may not reach the metadata service or private networks when allowed', async () => {
    await expect(vetWebhookUrl('http://169.254.169.254/', 'test', sandbox)).rejects.toThrow('cloud metadata');
    await expect(vetWebhookUrl('http://10.0.0.1/', 'test', sandbox)).rejects.toThrow('private');
  });

  it('follow the live rules when the operator does not allow it', async () => {
    await expect(vetWebhookUrl('http://127.0.0.1:8080/hook', 'test', { allowInsecureSandbox: false })).rejects.toThrow('must use https');
    await expect(vetWebhookUrl('https://127.0.0.1:8080/hook', 'test', { allowInsecureSandbox: false })).rejects.toThrow('loopback');
  });
});
