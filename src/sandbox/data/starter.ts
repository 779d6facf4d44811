/** What `udcli sandbox init` writes: a commented data file for one game, valid as it stands. */
import { SCHEMA_REFERENCE } from './schema.js';

export const STARTER_FILE = `# yaml-language-server: $schema=${SCHEMA_REFERENCE}
#   (\`udcli sandbox init\` wrote that schema beside this file; \`udcli sandbox schema\` prints it)
# Your game in the udcli sandbox. Load it with one of:
#   udcli sandbox start --data THIS_FILE        (instead of the demo data)
#   udcli sandbox exec --data THIS_FILE -- npm test
#   udcli sandbox load THIS_FILE                (into the sandbox database; a running sandbox sees it at once)
# JSON files take the same shape.
games:
  - id: "4711"                      # quoted: ids are strings
    name: Orbit Miner
    launchable: true                # plays_game is reported for launchable games only
    content_uri: http://localhost:3000/play   # what the play page /play/4711 shows in its iframe
    signing: agi                    # agi (the platform's) | hmac-sha256-v1 | both
    keys:
      - api_key: 5f0e3b7c9a1d4e2f8b6c0a9d7e5f3b1c   # 32 hex digits or the UUID form
        signing_secret: orbit-secret-1             # used by hmac-sha256-v1 only
      - api_key: 9b8a7c6d5e4f30211203948576afbecd
        partner: true               # may leave achievement changes unsigned
    achievements:
      - developer_id: BOSS_1
        name: Boss Slayer
        description: Defeat the first boss
        target_value: 1             # start_value 0, score 0, state Active unless given
        score: 10
        tags: { "1": Easy }
      - developer_id: ORE_100
        name: Prospector
        target_value: 100
    products:
      - sku: golden-armor
        type: unlockable            # held or not
        name: Golden Armor
        price: "2.99"
      - sku: gem-pack
        type: consumable            # held in units, counted on the base sku
        packs: [10, 50]             # listed as gem-pack:10 and gem-pack:50
        name: Gems
        price: "0.99"
users:
  - username: qa_alice              # uid = md5(username) unless uid is given
    gender: female
    email: qa_alice@example.test    # shown with a valid api_key
    friends: [qa_bob]               # friendship is mutual
    plays: ["4711"]
    progress: { "4711": { BOSS_1: 1, ORE_100: 40 } }     # current values (Completed at the target, else In Progress)
    # or in full: ORE_100: { value: 40, state: Revoked, completed_date: "2024-05-01 10:05:00" }
    holdings: { "4711": { golden-armor: 1, gem-pack: 30 } }   # units; a consumable by its base
    saves: { "4711": { slot1: '{"level":3,"ore":40}' } }   # game saves: key → text (the SDK saves JSON)
  - username: qa_bob
    premium: true
`;
