import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';

// findBy* and waitFor give up after this long. Testing Library's 1 s is tight when CI's two
// cores also build Rust: a passing query returns as soon as it matches, so a longer limit
// costs nothing and only keeps a slow machine from failing a correct screen.
configure({ asyncUtilTimeout: 5000 });

afterEach(() => {
  cleanup();
  // Every test starts with no cookies and no stored data.
  for (const cookie of document.cookie.split(';')) {
    const name = cookie.split('=')[0]?.trim();
    if (name) document.cookie = `${name}=; max-age=0; path=/`;
  }
  sessionStorage.clear();
  localStorage.clear();
});

// jsdom has no scrolling; React Router's scroll restoration calls it on every navigation.
window.scrollTo = () => undefined;
