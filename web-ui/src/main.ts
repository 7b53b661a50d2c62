import './style.css';
import { renderBoard } from './board';
import { renderModes } from './modes';

renderBoard(document.getElementById('board')!);
renderModes(document.getElementById('modes')!);
