// Stands for your game server's code: it asks the User Data REST Service for a player's name.
export async function playerName(baseUrl, apiKey, uid) {
  const reply = await fetch(`${baseUrl}/services/rest/v1/users/${uid}.json?api_key=${apiKey}`);
  if (!reply.ok) throw new Error(`the service answered ${reply.status}`);
  return (await reply.json()).payload.username;
}
