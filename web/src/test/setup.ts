import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';

afterEach(() => {
  cleanup();
  // Every test starts with no cookies and no session storage.
  for (const cookie of document.cookie.split(';')) {
    const name = cookie.split('=')[0]?.trim();
    if (name) document.cookie = `${name}=; max-age=0; path=/`;
  }
  sessionStorage.clear();
});

// jsdom has no scrolling; React Router's scroll restoration calls it on every navigation.
window.scrollTo = () => undefined;
