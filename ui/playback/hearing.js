// The replay's one Sound (sound.js), made from the reader's settings (settings.js), and the two
// controls of "Your settings" that change them: sound on or off, and its volume. The run's
// tones (runsound.js), the figure's walk (figurekeys.js) and the charts' (chartwords.js) all
// sound through it.

import { el } from "./dom.js";
import { onSettingsChanged, save, storedSound } from "./settings.js";
import { pitch, Sound } from "./sound.js";

/** The replay's Sound: off until the reader turns it on. */
export const SOUND = new Sound(storedSound());
onSettingsChanged(() => Object.assign(SOUND, storedSound()));

/** "Sound" and "Volume" for the settings row; a change is kept, and heard at once. */
export function soundControls(sound = SOUND) {
  const box = el("input", { type: "checkbox", class: "sound", checked: sound.on, disabled: !sound.available });
  const volume = el("input", {
    type: "range",
    class: "volume",
    min: 0,
    max: 100,
    step: 5,
    value: sound.volume,
    "aria-valuetext": `${sound.volume} %`,
  });
  const hear = () => sound.play("point", pitch(0), { tag: { preview: true } });
  box.addEventListener("change", () => {
    sound.on = box.checked;
    save("sound", sound.on ? "on" : "off");
    hear();
  });
  volume.addEventListener("input", () => {
    sound.volume = Number(volume.value);
    volume.setAttribute("aria-valuetext", `${sound.volume} %`);
    save("volume", volume.value);
  });
  volume.addEventListener("change", hear);
  const help = sound.available
    ? "A tone per step: high when the example lies well on its right side, low when well on the wrong side; a knock for an update."
    : "This browser has no Web Audio: the replay cannot sound here.";
  return [
    el("label", { class: "setting", title: help }, box, " Sound"),
    el("label", { class: "setting", title: "How loud the sounds are." }, "Volume ", volume),
  ];
}
