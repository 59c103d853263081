import { useContext } from 'react';
import { PopupContext, type PopupApi } from './PopupHost';

export function usePopup(): PopupApi {
  const api = useContext(PopupContext);
  if (!api) throw new Error('usePopup needs <PopupHost>');
  return api;
}
