export { PopupHost } from './PopupHost';
export { usePopup } from './usePopup';
export { emitPopup, type PopupInput, type PopupKind } from './popupState';
