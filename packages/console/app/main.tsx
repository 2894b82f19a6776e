// Entry point: read the mount prefix, render the app into #app.
import { render } from 'preact';
import { App } from './App.js';
import { initPrefix } from './routing/navigation.js';
import './styles.css';

initPrefix();
const root = document.getElementById('app');
if (root) render(<App />, root);
