/**
 * The help popup: how to move around the tree, with the mouse, a finger or the keyboard (decision 029's long moves),
 * its search and finds, the legend of the three kinds of square, and a link to contact.
 */
import { RESERVATION_PERIOD } from '#shared/durations.ts';
import type { ReactNode } from 'react';
import { Link } from '#client/router/react.tsx';
import {
  ArrowKeysIcon,
  FindFreeIcon,
  MouseIcon,
  PanIcon,
  SearchIcon,
  TargetIcon,
  ZoomInIcon,
} from '#client/tree/tree-icons.tsx';
import { Popup } from './popup.tsx';

export interface HelpPopupProps {
  /** The visitor has squares of their own: explain find-my-slots (hidden otherwise). */
  showFindMine: boolean;
  onClose: () => void;
}

export function HelpPopup({ showFindMine, onClose }: HelpPopupProps) {
  return (
    <Popup title="help." eyebrow="finding your way" onClose={onClose} testId="help-popup">
      <div className="help">
        <section className="help__section" aria-labelledby="help-moving">
          <h3 id="help-moving">moving around</h3>
          <ul className="help__list">
            <li className="help__item">
              <span className="help__key" aria-hidden="true">
                <ZoomInIcon />
              </span>
              <span>
                <strong>Zoom</strong> in and out with the <kbd aria-label="plus">+</kbd> and{' '}
                <kbd aria-label="minus">−</kbd> buttons at the top, or hold <kbd>Ctrl</kbd> and turn the mouse wheel
                (pinch on a touch screen).
              </span>
            </li>
            <li className="help__item">
              <span className="help__key" aria-hidden="true">
                <PanIcon />
              </span>
              <span>
                <strong>Pan</strong> by dragging the tree with the mouse, or with one finger, or with the arrow buttons
                at the top (on a phone, the four-arrow button shows them).
              </span>
            </li>
            <li className="help__item">
              <span className="help__key" aria-hidden="true">
                <MouseIcon />
              </span>
              <span>
                <strong>Scroll</strong> up and down with the mouse wheel; hold <kbd>Shift</kbd> and turn the wheel to
                scroll sideways.
              </span>
            </li>
            <li className="help__item">
              <span className="help__key" aria-hidden="true">
                <ArrowKeysIcon />
              </span>
              <span>
                <strong>Keyboard:</strong> select the tree, then move square by square with the arrow keys;{' '}
                <kbd>Enter</kbd> opens the square, <kbd>+</kbd> and <kbd>-</kbd> zoom. The keys below go further.
              </span>
            </li>
          </ul>
        </section>

        <section className="help__section" aria-labelledby="help-keys">
          <h3 id="help-keys">keys on the tree</h3>
          <dl className="help__keys" data-testid="help-keys">
            <dt>
              <kbd>Home</kbd> / <kbd>End</kbd>
            </dt>
            <dd>the first and the last square of the row</dd>
            <dt>
              <kbd>Page Up</kbd> / <kbd>Page Down</kbd>
            </dt>
            <dd>a screenful of rows up or down</dd>
            <dt>
              <kbd>B</kbd> / <kbd>Shift</kbd>+<kbd>B</kbd>
            </dt>
            <dd>the next band down (crown, trunk and branches, seed, roots) / the band above</dd>
            <dt>
              <kbd>P</kbd> / <kbd>Shift</kbd>+<kbd>P</kbd>
            </dt>
            <dd>the next published piece / the one before</dd>
            <dt>
              <kbd>F</kbd> / <kbd>Shift</kbd>+<kbd>F</kbd>
            </dt>
            <dd>the next free square / the one before</dd>
          </dl>
          <p className="help__note">
            With a screen reader you hear each square, and when the tree ends. After the buttons at the top,{' '}
            <strong>The tree in words</strong> lists what the view shows, its pieces as links, with a{' '}
            <strong>What is here?</strong> button.
          </p>
        </section>

        <section className="help__section" aria-labelledby="help-finding">
          <h3 id="help-finding">finding</h3>
          <ul className="help__list">
            <li className="help__item">
              <span className="help__key" aria-hidden="true">
                <SearchIcon />
              </span>
              <span>
                <strong>Search</strong> for pieces by title, keyword, description, category or artist: type at least
                three letters and press <kbd>Enter</kbd>.
              </span>
            </li>
            <li className="help__item">
              <span className="help__key" aria-hidden="true">
                <FindFreeIcon />
              </span>
              <span>
                <strong>Find a free square</strong>: each press brings the next available square to the middle of the
                screen.
              </span>
            </li>
            {showFindMine && (
              <li className="help__item" data-testid="help-find-mine">
                <span className="help__key" aria-hidden="true">
                  <TargetIcon />
                </span>
                <span>
                  <strong>Find my squares</strong>: each press brings your next piece, or your reserved square, into
                  view.
                </span>
              </li>
            )}
          </ul>
        </section>

        <SquaresLegend showMine={showFindMine} />

        <p className="help__contact">
          Still lost, or found something odd? <Link to="/contact">Contact us</Link> and we will help.
        </p>
      </div>
    </Popup>
  );
}

/** The legend of the squares' looks, with the viewer's own when they have squares. */
function SquaresLegend({ showMine }: { showMine: boolean }) {
  return (
    <section className="help__section" aria-labelledby="help-legend">
      <h3 id="help-legend">the squares</h3>
      <ul className="help__list">
        <li className="help__item">
          <ReservedSwatch />
          <span>
            <strong>Reserved square</strong>: its artist has {RESERVATION_PERIOD} to upload their piece before the
            square is released.
          </span>
        </li>
        <li className="help__item">
          <UnavailableSwatch />
          <span>
            <strong>Unavailable square</strong>: not connected to any uploaded piece yet.
          </span>
        </li>
        <li className="help__item">
          <AvailableSwatch />
          <span>
            <strong>Available square</strong>: registered observers or participants can click it to reserve it, one
            square at a time.
          </span>
        </li>
        {showMine && (
          <li className="help__item">
            <MineSwatch />
            <span>
              <strong>Your square</strong>: a piece of yours, or the square you hold.
            </span>
          </li>
        )}
      </ul>
    </section>
  );
}

// The swatches copy the canvas's look (shared/tree/cell-look.ts) at 40 px.

function Swatch({ children }: { children: ReactNode }) {
  return (
    <svg className="help__swatch" viewBox="0 0 40 40" aria-hidden="true" focusable="false">
      {children}
    </svg>
  );
}

function ReservedSwatch() {
  return (
    <Swatch>
      <defs>
        <clipPath id="help-reserved-clip">
          <rect width="40" height="40" />
        </clipPath>
      </defs>
      <rect width="40" height="40" fill="#e6e1d8" />
      <g clipPath="url(#help-reserved-clip)" stroke="#cfc8bb" strokeWidth="1.4">
        {[6, 12, 18, 24, 30, 36, 42, 48, 54, 60, 66, 72, 78].map((k) => (
          <line key={k} x1={k - 40} y1={40} x2={k} y2={0} />
        ))}
      </g>
      <circle cx="34" cy="6" r="3.2" fill="#f5f2ec" stroke="#8a6a4a" strokeWidth="1.3" />
    </Swatch>
  );
}

function UnavailableSwatch() {
  return (
    <Swatch>
      <rect x="0.75" y="0.75" width="38.5" height="38.5" fill="none" stroke="#cbc3b6" strokeWidth="1.5" />
    </Swatch>
  );
}

function AvailableSwatch() {
  return (
    <Swatch>
      <rect x="1" y="1" width="38" height="38" fill="#fdfcf9" stroke="#2e6b57" strokeWidth="2" />
      <path d="M16 20h8M20 16v8" stroke="#2e6b57" strokeOpacity="0.5" strokeWidth="1.5" strokeLinecap="round" />
    </Swatch>
  );
}

function MineSwatch() {
  return (
    <Swatch>
      <rect x="2" y="2" width="36" height="36" fill="#f3e6c8" stroke="#d2a145" strokeWidth="3" />
      <path d="M0.5 0.5h13.5L0.5 14z" fill="#d2a145" />
    </Swatch>
  );
}
