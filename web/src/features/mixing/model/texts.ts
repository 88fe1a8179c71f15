import en from '../../../locales/en/mixing.json';
import fr from '../../../locales/fr/mixing.json';
import { addFeatureTexts } from '../../../lib/i18n';

// The mixing studio loads on use; its texts, in both languages, come with it (not with the first route).
addFeatureTexts('mixing', { en, fr });
