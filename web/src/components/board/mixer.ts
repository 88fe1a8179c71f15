/**
 * The board's mixer: each row's volume, mute and solo, and the spec's rules (§4) as a pure reducer. "Soloing a track
 * unmutes it and mutes all others; un-soloing unmutes all others; unmuting a soloed track clears solo on the others."
 * Solo is exclusive: a track that another solo mutes loses its own solo, so one S at most is lit after a solo.
 */
export interface Channel {
  volume: number;
  muted: boolean;
  solo: boolean;
}

export type Mixer = Readonly<Record<string, Channel>>;

export type MixerAction =
  | { type: 'reset'; ids: readonly string[] }
  | { type: 'toggleMute'; id: string }
  | { type: 'toggleSolo'; id: string }
  | { type: 'setVolume'; id: string; volume: number };

/** Every stem starts at volume 1, neither muted nor soloed (spec §3). */
export const DEFAULT_CHANNEL: Channel = { volume: 1, muted: false, solo: false };

export function initialMixer(ids: readonly string[]): Mixer {
  return Object.fromEntries(ids.map((id) => [id, DEFAULT_CHANNEL]));
}

/** A volume on the slider's grid: 0 to 1 in steps of 0.01 (spec §9). */
export function clampVolume(volume: number): number {
  if (!Number.isFinite(volume)) return 1;
  return Math.round(Math.min(1, Math.max(0, volume)) * 100) / 100;
}

function mapOthers(mixer: Mixer, id: string, change: (channel: Channel) => Channel): Record<string, Channel> {
  return Object.fromEntries(
    Object.entries(mixer).map(([key, channel]) => [key, key === id ? channel : change(channel)]),
  );
}

export function mixerReducer(mixer: Mixer, action: MixerAction): Mixer {
  switch (action.type) {
    case 'reset':
      return initialMixer(action.ids);
    case 'toggleMute': {
      const channel = mixer[action.id];
      if (!channel) return mixer;
      const muted = !channel.muted;
      const others =
        !muted && channel.solo ? mapOthers(mixer, action.id, (other) => ({ ...other, solo: false })) : mixer;
      return { ...others, [action.id]: { ...channel, muted } };
    }
    case 'toggleSolo': {
      const channel = mixer[action.id];
      if (!channel) return mixer;
      if (channel.solo) {
        const others = mapOthers(mixer, action.id, (other) => ({ ...other, muted: false }));
        return { ...others, [action.id]: { ...channel, solo: false } };
      }
      const others = mapOthers(mixer, action.id, (other) => ({ ...other, muted: true, solo: false }));
      return { ...others, [action.id]: { ...channel, solo: true, muted: false } };
    }
    case 'setVolume': {
      const channel = mixer[action.id];
      if (!channel) return mixer;
      return { ...mixer, [action.id]: { ...channel, volume: clampVolume(action.volume) } };
    }
    default: {
      const unknown: never = action;
      return unknown;
    }
  }
}

/** The gain a row plays at: silent when muted, else its volume. */
export function gainOf(channel: Channel | undefined): number {
  if (!channel || channel.muted) return 0;
  return channel.volume;
}

/**
 * What a board plays (an A/B choice, never both at once): the stems (or a mix's tracks) summed at their mixer gains,
 * or the reference row (the stems board's original, the mixing board's final mix) alone. The reference already holds
 * every stem, so summing it under them would keep a muted stem audible (the vocals in karaoke) and raise the level.
 */
export type Listen = 'stems' | 'reference';

/**
 * Each row's gain for what is listened to: with `stems`, every stem at `gainOf` (silent when muted, solo included
 * through the mutes it sets) and the reference silent, so the output is exactly the sum of the audible stems; with
 * `reference`, the reference alone at unity gain and every stem silent. Rows outside `stems` and `reference` get 0.
 */
export function boardGains(
  mixer: Mixer,
  stems: readonly string[],
  reference: string | undefined,
  listen: Listen,
): Record<string, number> {
  const gains: Record<string, number> = Object.fromEntries(
    stems.map((id) => [id, listen === 'stems' ? gainOf(mixer[id]) : 0]),
  );
  if (reference !== undefined) gains[reference] = listen === 'reference' ? 1 : 0;
  return gains;
}
