import { acceptedReturnTo } from './return-to';

describe(acceptedReturnTo.name, () => {
  const origins = ['https://portal.example.com', 'http://localhost:3000'];

  it.each([
    [undefined, '/'],
    ['', '/'],
    ['/', '/'],
    ['/dashboard?tab=1#top', '/dashboard?tab=1#top'],
    ['https://portal.example.com', 'https://portal.example.com'],
    ['https://portal.example.com/app', 'https://portal.example.com/app'],
    ['http://localhost:3000/x', 'http://localhost:3000/x'],
  ])('accepts %s as %s', (value, expected) => {
    expect(acceptedReturnTo(value, origins)).toBe(expected);
  });

  it.each([
    '//evil.example',
    '/\\evil.example',
    '\\\\evil.example',
    'https:evil.example',
    'https:/evil.example',
    'javascript:alert(1)',
    'data:text/html,x',
    'https://evil.example/',
    'https://portal.example.com.evil.example/',
    'https://portal.example.com@evil.example/',
    'https://user@portal.example.com/',
    '/\tevil',
    ' /x',
    'evil.example',
    42,
    '/'.padEnd(2049, 'a'),
  ])('refuses %s', (value) => {
    expect(acceptedReturnTo(value, origins)).toBeNull();
  });
});
