# -*- coding: utf-8 -*-
"""Demo corpus: story templates for everyday local news, per language and category.

generate.py fills the slots with the publisher's own city and with seeded choices, so each
publisher gets its own everyday stories. Slots: {city} {region} {hood} {person} {person2}
{street} {park} {school} {venue} {biz} {team} {rival} {n} {num} {pct} {money} {day}; a
template's "v" lists give named choices picked once per story ({thing} etc.).
Each template: cat (one of the 13 categories), t (title), b (text; paragraphs separated by
blank lines). All names produced are fictional.
"""

TEMPLATES = {
"en": [
    # local
    {"cat": "local", "t": "{city} council approves {thing} after a long night of public comment",
     "v": {"thing": ["a $4 million repair plan for {park}", "new crosswalks on {street}", "a pilot for later library hours", "a ban on leaf blowers in {hood}", "a new dog park in {hood}"]},
     "b": "After more than three hours of public comment, the {city} city council voted {n} to 2 on {day} night to approve {thing}.\n\n"
          "Supporters said the change was overdue. Opponents, most of them from {hood}, asked for more study and worried about cost. \"We heard every concern tonight, and we will keep listening as this moves ahead,\" said council member {person}.\n\n"
          "Staff will return in the spring with a schedule and a detailed budget."},
    {"cat": "local", "t": "{street} in {hood} to close for {n} weeks of water main work",
     "b": "Drivers in {hood} should plan for detours: {street} will close between two cross streets for about {n} weeks starting {day} while crews replace a water main laid in the 1920s.\n\n"
          "Sidewalks will stay open and businesses will remain accessible. Residents can expect short water shutoffs, announced at least 48 hours ahead. \"Old pipes break in winter, so we would rather do this now,\" said {person}, the city's utilities director."},
    {"cat": "local", "t": "Volunteers plant {num} trees along {street} in {hood}",
     "b": "About 80 volunteers spent {day} morning planting {num} young trees along {street}, part of a push to cool the hottest blocks of {hood}.\n\n"
          "Neighbors will water the trees for the first two summers. {person}, who organized the planting, said kids from {school} adopted a tree each. \"In ten years this street will look completely different,\" she said."},
    {"cat": "local", "t": "{city} opens {n} new warming centers as nights turn cold",
     "b": "With overnight temperatures dropping, {city} opened {n} additional warming centers on {day}, including one at {venue} in {hood}.\n\n"
          "The centers stay open from 7 p.m. to 7 a.m. and offer cots, hot drinks and phone charging. Outreach workers will bring people who are sleeping outside. The city's housing office said {num} people used the centers last winter."},
    # politics
    {"cat": "politics", "t": "{city} mayor proposes {money} budget with {thing}",
     "v": {"thing": ["more money for street repair", "a hiring freeze at city hall", "a new office for tenants", "no property tax increase", "cuts to overtime"]},
     "b": "The mayor of {city} presented a {money} budget on {day} that includes {thing}, setting up weeks of negotiations with the council.\n\n"
          "Council member {person} said she liked parts of the plan but wanted more for parks in {hood}. A public hearing is scheduled for next month, and the budget must pass by the end of the year."},
    {"cat": "politics", "t": "Turnout low as {city} voters fill an open council seat",
     "b": "Only about {pct} percent of registered voters cast ballots on {day} in a special election for the council seat covering {hood}.\n\n"
          "{person}, a former school board member, won with a little more than half the vote. Her first priority, she said, is getting the stalled housing project on {street} moving again. Her opponent, {person2}, conceded before midnight."},
    {"cat": "politics", "t": "State lawmakers from {city} split over {thing}",
     "v": {"thing": ["a plan to raise the gas tax", "a ban on cellphones in schools", "a cap on rent increases", "a new ethics commission"]},
     "b": "The {city} delegation in the {region} legislature is divided over {thing}, with a vote expected before the session ends.\n\n"
          "Representative {person} said the idea would help working families; Senator {person2} called it rushed. Advocacy groups have scheduled a rally on the steps of the capitol next week."},
    {"cat": "politics", "t": "{city} council member faces recall petition in {hood}",
     "b": "Residents of {hood} have started collecting signatures to recall council member {person}, angered by her vote to rezone a stretch of {street} for taller buildings.\n\n"
          "Organizers need about {num} valid signatures in 60 days. {person} said she stands by the vote: \"We need more homes, and that means some change on our main streets.\""},
    # business
    {"cat": "business", "t": "{biz} to open second location in {hood}",
     "b": "{biz}, which started as a stall at a weekend market, will open a second location on {street} in {hood} next month.\n\n"
          "Owner {person} said the new shop will hire {n} people and stay open later than the original. \"Rent is not cheap, but the neighborhood kept asking,\" she said. The first location, near {venue}, will stay open."},
    {"cat": "business", "t": "Longtime {hood} hardware store closing after {num2} years",
     "v": {"num2": ["58", "61", "72", "45", "90"]},
     "b": "{biz}, a family hardware store on {street} for {num2} years, will close at the end of December, its owners said {day}.\n\n"
          "{person}, whose grandfather opened the shop, said online competition and higher rent made the decision easy on paper but hard in every other way. Regulars have been stopping by to share stories and buy the last bags of rock salt."},
    {"cat": "business", "t": "{city} unemployment rate dips to {pct2} percent",
     "v": {"pct2": ["3.4", "3.9", "4.1", "4.6", "5.2"]},
     "b": "The unemployment rate in the {city} area fell to {pct2} percent in October, the lowest in more than a year, according to new state figures.\n\n"
          "Health care and construction added the most jobs, while retail lost positions ahead of the holiday season. Economist {person} cautioned that wages have not kept pace with rent in neighborhoods like {hood}."},
    {"cat": "business", "t": "Small businesses on {street} in {hood} say construction is costing them customers",
     "b": "Shop owners along {street} in {hood} say months of road work have cut their sales by as much as {pct} percent.\n\n"
          "The city has offered small grants of up to $5,000, but few have received one. \"People think we are closed,\" said {person}, who runs a bakery on the block. The work is scheduled to finish in February."},
    # sports
    {"cat": "sports", "t": "{team} beat {rival} {score} behind a late surge",
     "v": {"score": ["4-2", "3-1", "102-95", "27-20", "5-4 in overtime"]},
     "b": "The {team} scored twice in the final minutes to beat the {rival} {score} on {day} night at {arena}.\n\n"
          "{person} led the way and {person2} made a key stop late. \"We kept our heads when it got loud,\" the coach said afterwards. The win moves the {team} into second place with {n} games left before the break."},
    {"cat": "sports", "t": "{city}'s {school} wins first regional title in {n} decades",
     "b": "{school} won its first regional championship in {n} decades on {day}, beating a heavily favored opponent in front of a packed home crowd.\n\n"
          "Senior {person} scored the winning points with under a minute left. Students rushed the field after the final whistle. The team plays in the state semifinals next weekend."},
    {"cat": "sports", "t": "{team} sign veteran {position} to one-year deal",
     "v": {"position": ["goalkeeper", "defender", "point guard", "pitcher", "center"]},
     "b": "The {team} have signed veteran {position} {person} to a one-year contract, the club announced {day}.\n\n"
          "The 31-year-old spent the last two seasons with the {rival}. Coaches said they wanted experience for a young roster. Financial terms were not released."},
    {"cat": "sports", "t": "Youth hockey and soccer leagues in {city} short of volunteer coaches",
     "b": "Youth leagues in {city} say they need at least {num} more volunteer coaches to keep every team on the schedule this winter.\n\n"
          "{person}, who runs the league based at {park}, said training and background checks are free. \"You don't need to be an expert, you need to show up,\" she said."},
    # entertainment
    {"cat": "entertainment", "t": "{venue} in {hood} reopens after a {money} renovation",
     "b": "{venue} in {hood} reopened on {day} after an 18-month renovation that cost {money}, with new seats, a larger stage and an elevator.\n\n"
          "The first weekend features a local jazz trio and a community choir. Executive director {person} said tickets for most shows will stay under $30."},
    {"cat": "entertainment", "t": "Weekend picks: {thing} and more in {city}",
     "v": {"thing": ["a lantern parade", "a comic book fair", "a silent film night with live organ", "a craft beer festival", "an outdoor ice rink opening"]},
     "b": "This weekend in {city} brings {thing}, plus a holiday market at {park} and free museum admission on Sunday.\n\n"
          "Our pick: the evening events at {venue}, where local bands will play short sets between 6 and 10 p.m. Dress warmly, bring cash for food trucks, and take transit if you can."},
    {"cat": "entertainment", "t": "Local filmmaker shoots feature in {hood} with neighbors as extras",
     "b": "Director {person} spent the fall shooting her first feature film in {hood}, casting dozens of neighbors as extras and using a corner store on {street} as the main set.\n\n"
          "The film follows two sisters who inherit a failing diner. It will premiere at {venue} in the spring."},
    {"cat": "entertainment", "t": "{city} symphony announces free concerts in {n} neighborhoods",
     "b": "The {city} symphony will play free concerts in {n} neighborhoods this winter, starting at a school gym in {hood}.\n\n"
          "Conductor {person} said the idea is to reach people who have never been to the concert hall. Programs will be short, about an hour, and children are welcome."},
    # health
    {"cat": "health", "t": "Flu shots now free at {city} pharmacies and clinics",
     "b": "Flu and COVID-19 vaccines are available at no cost at pharmacies and community clinics across {city}, health officials said {day}.\n\n"
          "Dr. {person} of the city health department said hospital visits for respiratory illness are rising earlier than usual. A walk-in clinic at {venue} will stay open on Saturdays through January."},
    {"cat": "health", "t": "{hood} clinic adds evening hours as waits grow",
     "b": "A community health clinic on {street} in {hood} will stay open until 9 p.m. on weekdays starting next month, after waiting times for appointments stretched past three weeks.\n\n"
          "The clinic sees about {num} patients a week, many without insurance. Nurse practitioner {person} said evening hours will help parents who cannot leave work."},
    {"cat": "health", "t": "Study: walkers in {city} parks report better sleep",
     "b": "Adults who walked in a park at least three times a week slept about {n}0 minutes longer a night, according to a small study by researchers in {city}.\n\n"
          "The team followed {num} volunteers for six months. Lead author {person} said the results fit earlier research but warned the study was too small to prove cause."},
    {"cat": "health", "t": "Hospital in {city} opens new emergency unit for older adults",
     "b": "A {city} hospital has opened an emergency unit designed for patients over 65, with quieter rooms, better lighting and staff trained to spot delirium.\n\n"
          "Emergency physician Dr. {person} said older patients often wait longest and do worst in a busy emergency room. The unit has {n}4 beds."},
    # science-tech
    {"cat": "science-tech", "t": "{city} library lends out {thing}",
     "v": {"thing": ["telescopes", "laptops and hotspots", "air quality monitors", "3D printers by the hour"]},
     "b": "Residents with a {city} library card can now borrow {thing}, part of a program to close the gap between neighborhoods.\n\n"
          "The first {num} items went out within a week. Librarian {person} said demand is highest in {hood}, where many families share a single phone for internet access."},
    {"cat": "science-tech", "t": "Students at {city}'s {school} build a weather station that reports online",
     "b": "Students at {school} have built a rooftop weather station that posts temperature, wind and rainfall every five minutes.\n\n"
          "Teacher {person} said the project started as a physics lab and turned into a neighborhood resource. The data already helped the city track a flooded underpass in {hood}."},
    {"cat": "science-tech", "t": "{city} startup raises {money} for battery recycling",
     "b": "{biz}, a {city} startup that recovers metals from used batteries, has raised {money} from investors, the company said {day}.\n\n"
          "Co-founder {person} said the money will pay for a pilot plant and about {n}0 new jobs. The company collects batteries from e-bike shops across the region."},
    {"cat": "science-tech", "t": "{city} tests smart traffic signals on {street}",
     "b": "Traffic signals along {street} now adjust to real-time traffic in a pilot project that {city} officials hope will cut delays by {pct} percent.\n\n"
          "Cameras count cars and bikes but do not record faces or plates, said engineer {person}. Results will be published in the spring."},
    # weather
    {"cat": "weather", "t": "First frost expected in {city} this week",
     "b": "Gardeners in {city} should bring in tender plants: forecasters expect the first frost of the season by {day} morning, with lows near freezing in outlying areas.\n\n"
          "Afternoons will stay mild and dry. Meteorologist {person} said the cold snap is a normal pattern for late November and will ease by the weekend."},
    {"cat": "weather", "t": "Wind advisory for {city}; scattered power outages possible",
     "b": "A wind advisory is in effect for {city} until late {day}, with gusts up to 50 mph expected in the afternoon.\n\n"
          "Loose decorations and bins should be secured. The utility said crews are on standby. Meteorologist {person} said rain will follow the wind overnight."},
    {"cat": "weather", "t": "Why this fall has been so dry in {city}",
     "b": "{city} has had about {pct} percent of its normal rainfall since September, making this one of the driest autumns on record.\n\n"
          "Climatologist {person} said a stubborn high-pressure ridge has pushed storms away. Water managers are not yet asking for cuts but urge residents to turn off sprinklers."},
    # crime-safety
    {"cat": "crime-safety", "t": "Police investigate break-ins at {n} businesses on {street} in {hood}",
     "b": "Police are investigating a string of overnight break-ins at {n} businesses along {street} in {hood}, including a pharmacy and a nail salon.\n\n"
          "In each case the front glass was smashed and cash registers taken. No one was hurt. Detectives asked anyone with security camera footage to contact the district station."},
    {"cat": "crime-safety", "t": "Pedestrian seriously injured in {hood} crash; driver stays at scene",
     "b": "A 67-year-old pedestrian was seriously injured {day} evening when she was hit by a car while crossing {street} in {hood}.\n\n"
          "The driver stayed at the scene and is cooperating, police said. Neighbors have asked for a signal at the intersection for years. Council member {person} said she would press the city again."},
    {"cat": "crime-safety", "t": "{city} fire department warns about space heaters after {n} house fires",
     "b": "The {city} fire department has responded to {n} house fires linked to space heaters since the start of November.\n\n"
          "Fire marshal {person} urged residents to keep heaters three feet from anything that can burn and never to plug them into extension cords. Free smoke alarms are available by calling the city's service line."},
    {"cat": "crime-safety", "t": "Scam callers posing as utility workers target {city} seniors",
     "b": "Police in {city} are warning older residents about phone scammers who claim to be from the power company and demand immediate payment to avoid a shutoff.\n\n"
          "At least {n} residents of {hood} lost money this month. The utility never asks for payment by gift card, said Sergeant {person}."},
    # education
    {"cat": "education", "t": "{city}'s {school} to add free breakfast for every student",
     "b": "Every student at {school} will get free breakfast starting in January, after the district won a federal grant worth {money}.\n\n"
          "Principal {person} said teachers noticed more students arriving hungry this fall. Breakfast will be served in classrooms during the first ten minutes of the day."},
    {"cat": "education", "t": "{city} school board debates later start times",
     "b": "The {city} school board heard two hours of testimony on {day} about moving high school start times to 8:30 a.m. or later.\n\n"
          "Parents cited sleep research; bus contractors warned of costs. Board member {person} proposed a one-year pilot at {school}. A vote is expected in January."},
    {"cat": "education", "t": "Teacher shortage: {city} district still has {num} openings",
     "b": "Three months into the school year, the {city} school district still has {num} teaching positions without a permanent teacher, most in special education and math.\n\n"
          "Substitutes and retired teachers are filling the gaps. Union president {person} said pay and housing costs keep new teachers away from the city."},
    {"cat": "education", "t": "Adult English classes in {hood} have a waiting list of {num}",
     "b": "Free English classes for adults at {venue} in {hood} have a waiting list of {num} people, organizers say, and they are looking for volunteer tutors.\n\n"
          "Coordinator {person} said most students work during the day, so evening and weekend tutors are most needed."},
    # food
    {"cat": "food", "t": "Review: {biz} brings {thing} to {hood}",
     "v": {"thing": ["wood-fired pizza", "Ethiopian coffee ceremonies", "hand-pulled noodles", "Oaxacan moles", "Korean fried chicken", "Lebanese breakfasts"]},
     "b": "{biz}, which opened in October on {street}, serves some of the best {thing} we have had this year.\n\n"
          "Start with the daily special and leave room for dessert. Prices are fair, with most plates under $18, though the room gets loud on weekends. Chef {person} cooks from family recipes and changes the menu with the season."},
    {"cat": "food", "t": "Food bank in {city} asks for help before the holidays",
     "b": "The main food bank serving {city} says demand is up {pct} percent from last year and shelves are thinning before the holidays.\n\n"
          "Most needed are canned protein, rice and baby formula. Director {person} said cash donations go furthest because the food bank buys in bulk. Volunteer shifts are available at the warehouse on {street}."},
    {"cat": "food", "t": "{hood} farmers market moves indoors for the winter",
     "b": "The {hood} farmers market will move indoors to {venue} for the winter starting {day}, with about {n}0 vendors selling root vegetables, cheese, bread and preserves.\n\n"
          "Market manager {person} said winter sales have grown every year. Food assistance benefits are accepted and matched up to $20."},
    # lifestyle
    {"cat": "lifestyle", "t": "How {city} neighbors are swapping tools instead of buying them",
     "b": "A tool library in {hood} lets members borrow ladders, drills and even a pressure washer for a yearly fee of $30.\n\n"
          "Founder {person} said the idea came from noticing that every garage on {street} had the same unused equipment. The library now has more than {num} items."},
    {"cat": "lifestyle", "t": "Winter walking: {n} quiet trails near {city}",
     "b": "You do not need to leave town to find quiet paths this winter. We picked {n} walks near {city}, from a flat loop in {park} to a steeper climb with city views.\n\n"
          "Bring traction if it has snowed, and check trail reports before you go. Most routes are under five kilometres and easy to reach by bus."},
    {"cat": "lifestyle", "t": "{hood} couple turns backyard into a pollinator garden",
     "b": "{person} and {person2} replaced their lawn in {hood} with native flowers and grasses three years ago. This year they counted {n}0 kinds of bees.\n\n"
          "Their advice: start small, skip pesticides and leave stems standing over winter. Neighbors on {street} have started copying them."},
    {"cat": "lifestyle", "t": "The secondhand clothing shops of {city}, ranked by a thrift addict",
     "b": "Our writer spent a month visiting every secondhand shop she could find in {city}. The best for coats was near {venue}; the best for children's clothes was on {street}.\n\n"
          "Tip: shop midweek, when stores restock after weekend donations."},
    # opinion
    {"cat": "opinion", "t": "Opinion: {city} needs {thing}, not another study",
     "v": {"thing": ["safer crossings on {street}", "more public restrooms", "buses that come every ten minutes", "a real plan for affordable housing"]},
     "b": "For years, {city} has studied {thing}, and for years nothing has changed. The reports sit on a shelf while residents of {hood} wait.\n\n"
          "The council has the money in this year's budget. What it needs is the will to act before the next study is commissioned. {person} is a resident of {hood} and a member of the neighborhood association."},
    {"cat": "opinion", "t": "Letters from {hood}: readers on the {street} redesign, parking and more",
     "b": "Readers wrote in this week about the plan to redesign {street}. Several supported wider sidewalks; others said the loss of parking will hurt small shops.\n\n"
          "One reader from {hood} suggested a trial period before anything is built. Letters have been edited for length."},
    {"cat": "opinion", "t": "Editorial: keep the {hood} library branch open",
     "b": "The proposal to close the {hood} branch library to save money is a mistake. The branch is where children do homework, where job seekers use computers and where seniors meet.\n\n"
          "The savings, about {money}, are small in a budget this size. The council should find them somewhere else."},
],
"es": [
    {"cat": "local", "t": "Vecinos de {hood} piden más iluminación en {street}",
     "b": "Un grupo de vecinos de {hood} entregó el {day} al concejo municipal de {city} una petición con {num} firmas para instalar más luminarias en {street}.\n\n"
          "\"Después de las seis de la tarde ya no se puede caminar tranquilo\", dijo {person}, madre de dos niños. La ciudad respondió que revisará el tramo y que podría incluirlo en el presupuesto del próximo año."},
    {"cat": "local", "t": "{city} abre {n} centros de calentamiento por el frío",
     "b": "La ciudad de {city} abrió {n} centros de calentamiento el {day}, entre ellos uno en {venue}, ante las bajas temperaturas previstas para esta semana.\n\n"
          "Los centros funcionan de 7 de la noche a 7 de la mañana y ofrecen catres, bebidas calientes y cargadores de teléfono. Trabajadores sociales recorrerán las calles para invitar a las personas sin hogar."},
    {"cat": "politics", "t": "El concejo de {city} aprueba un presupuesto de {money}",
     "b": "El concejo municipal de {city} aprobó el {day} un presupuesto de {money} para el próximo año, con más fondos para reparar calles y para la biblioteca de {hood}.\n\n"
          "La concejal {person} votó en contra porque, dijo, no incluye suficiente dinero para vivienda asequible. El alcalde firmará el presupuesto la próxima semana."},
    {"cat": "politics", "t": "Baja participación en la elección especial de {hood}",
     "b": "Solo el {pct} por ciento de los votantes registrados acudió a las urnas el {day} en la elección especial para el distrito que incluye {hood}.\n\n"
          "{person}, exmaestra y activista comunitaria, ganó con poco más de la mitad de los votos. Promete trabajar en transporte público y en la seguridad de {street}."},
    {"cat": "business", "t": "{biz} abre su segunda sucursal en {hood}",
     "b": "{biz}, que comenzó como un puesto en un mercado de fin de semana, abrirá su segunda sucursal en {street} el próximo mes.\n\n"
          "Su dueña, {person}, dijo que contratará a {n} personas del barrio. \"Nuestros clientes nos pidieron estar más cerca\", explicó."},
    {"cat": "business", "t": "Comerciantes de {street}, en {hood}, dicen que las obras les quitan clientes",
     "b": "Los dueños de pequeños negocios en {street} aseguran que las obras en la calle han reducido sus ventas hasta en un {pct} por ciento.\n\n"
          "La ciudad ofrece ayudas de hasta 5,000 dólares, pero pocos las han recibido. \"La gente cree que cerramos\", dijo {person}, que tiene una panadería en la cuadra."},
    {"cat": "sports", "t": "Los {team} vencen a los {rival} con un gol en el último minuto",
     "b": "Los {team} derrotaron {score} a los {rival} el {day} por la noche en {arena}, gracias a un gol de {person} en el último minuto.\n\n"
          "\"Nunca dejamos de creer\", dijo el entrenador. Con la victoria, el equipo sube al segundo lugar de la tabla a falta de {n} partidos.",
     "v": {"score": ["2-1", "3-2", "1-0", "4-3"]}},
    {"cat": "sports", "t": "La escuela {school} de {city} gana su primer campeonato regional",
     "b": "El equipo de la escuela {school} ganó el {day} su primer campeonato regional en décadas, ante un estadio lleno de familias.\n\n"
          "La estudiante {person} anotó los puntos decisivos. El equipo jugará la semifinal estatal el próximo fin de semana."},
    {"cat": "entertainment", "t": "Planes para el fin de semana en {city}: {thing}",
     "v": {"thing": ["un festival de mariachi", "una feria del libro", "cine al aire libre", "un desfile de faroles", "una noche de danzón"]},
     "b": "Este fin de semana en {city} hay {thing}, además de un mercado navideño en {park} y entrada gratuita a los museos el domingo.\n\n"
          "Nuestra recomendación: las actividades de la tarde en {venue}, con grupos locales entre las 6 y las 10 de la noche. Lleve abrigo y efectivo para los puestos de comida."},
    {"cat": "entertainment", "t": "Reabre {venue} de {city} tras una renovación de {money}",
     "b": "{venue} reabrió sus puertas el {day} después de 18 meses de obras que costaron {money}, con butacas nuevas, un escenario más grande y un elevador.\n\n"
          "La directora, {person}, dijo que la mayoría de las funciones costarán menos de 30 dólares."},
    {"cat": "health", "t": "Vacunas contra la gripe gratuitas en clínicas de {city}",
     "b": "Las vacunas contra la gripe y el COVID-19 se ofrecen sin costo en farmacias y clínicas comunitarias de {city}, informaron el {day} las autoridades de salud.\n\n"
          "La doctora {person} explicó que las visitas al hospital por enfermedades respiratorias aumentan antes de lo habitual. La clínica de {venue} abrirá también los sábados."},
    {"cat": "health", "t": "Clínica de {hood} amplía su horario por las largas esperas",
     "b": "Una clínica comunitaria en {street} atenderá hasta las 9 de la noche entre semana a partir del próximo mes, después de que la espera para una cita superara las tres semanas.\n\n"
          "La clínica atiende a unos {num} pacientes por semana, muchos sin seguro médico. La enfermera {person} dijo que el nuevo horario ayudará a los padres que trabajan."},
    {"cat": "science-tech", "t": "La biblioteca de {city} presta {thing}",
     "v": {"thing": ["telescopios", "computadoras portátiles e internet móvil", "medidores de calidad del aire"]},
     "b": "Los vecinos con credencial de la biblioteca de {city} ya pueden pedir prestados {thing}, como parte de un programa para reducir la brecha digital.\n\n"
          "Los primeros {num} equipos se prestaron en una semana. La bibliotecaria {person} dijo que la demanda es mayor en {hood}."},
    {"cat": "science-tech", "t": "Estudiantes de la escuela {school} de {city} construyen una estación meteorológica",
     "b": "Estudiantes de la escuela {school} instalaron en la azotea una estación meteorológica que publica en internet la temperatura, el viento y la lluvia cada cinco minutos.\n\n"
          "El maestro {personm} dijo que el proyecto empezó como una práctica de física y se convirtió en un servicio para el barrio."},
    {"cat": "weather", "t": "Se espera la primera helada de la temporada en {city}",
     "b": "Los pronósticos anticipan la primera helada de la temporada en {city} para la madrugada del {day}, con temperaturas cercanas al punto de congelación en las afueras.\n\n"
          "Las tardes seguirán templadas y secas. El meteorólogo {personm} recomienda proteger las plantas y las tuberías exteriores."},
    {"cat": "weather", "t": "Aviso por vientos fuertes en {city}",
     "b": "El Servicio Meteorológico emitió un aviso por vientos fuertes para {city} hasta el {day} por la noche, con ráfagas de hasta 80 kilómetros por hora.\n\n"
          "Se recomienda asegurar adornos y botes de basura. La compañía eléctrica tiene brigadas listas por posibles apagones."},
    {"cat": "crime-safety", "t": "Policía investiga robos en {n} negocios de {street} en {hood}",
     "b": "La policía investiga una serie de robos nocturnos en {n} negocios de {street}, en {hood}, entre ellos una farmacia y un salón de belleza.\n\n"
          "En todos los casos rompieron el vidrio de la entrada y se llevaron la caja registradora. No hubo heridos. Los detectives piden a los vecinos con cámaras de seguridad que llamen a la estación."},
    {"cat": "crime-safety", "t": "Alertan de estafas telefónicas contra adultos mayores en {city}",
     "b": "La policía de {city} advierte sobre llamadas de estafadores que se hacen pasar por empleados de la compañía de luz y exigen un pago inmediato.\n\n"
          "Al menos {n} vecinos de {hood} perdieron dinero este mes. \"La compañía nunca pide pagos con tarjetas de regalo\", recordó el sargento {personm}."},
    {"cat": "education", "t": "Desayuno gratis para todos los alumnos de la escuela {school} de {city}",
     "b": "Todos los alumnos de la escuela {school} recibirán desayuno gratis a partir de enero, gracias a una subvención federal de {money}.\n\n"
          "La directora {person} dijo que los maestros notaron que más niños llegaban con hambre este otoño. El desayuno se servirá en los salones al comienzo del día."},
    {"cat": "education", "t": "Clases de inglés para adultos en {hood} tienen lista de espera",
     "b": "Las clases gratuitas de inglés para adultos en {venue} tienen una lista de espera de {num} personas, y los organizadores buscan tutores voluntarios.\n\n"
          "La coordinadora {person} explicó que la mayoría de los alumnos trabaja de día, por lo que se necesitan tutores por la tarde y los fines de semana."},
    {"cat": "food", "t": "Reseña: {biz} trae {thing} a {hood}",
     "v": {"thing": ["tamales oaxaqueños", "pupusas salvadoreñas", "mariscos estilo Sinaloa", "pan dulce recién horneado", "birria de res"]},
     "b": "{biz}, que abrió en octubre en {street}, sirve algunos de los mejores {thing} que hemos probado este año.\n\n"
          "Los precios son justos, la mayoría de los platos cuesta menos de 15 dólares, y el ambiente es familiar. La cocinera {person} usa recetas de su abuela."},
    {"cat": "food", "t": "El banco de alimentos de {city} pide ayuda antes de las fiestas",
     "b": "El banco de alimentos de {city} dice que la demanda subió un {pct} por ciento respecto al año pasado y que los estantes se vacían antes de las fiestas.\n\n"
          "Se necesitan sobre todo proteínas enlatadas, arroz y fórmula para bebés. El director, {personm}, dijo que las donaciones en dinero rinden más."},
    {"cat": "lifestyle", "t": "Vecinos de {hood} comparten herramientas en vez de comprarlas",
     "b": "Una biblioteca de herramientas en {hood} presta escaleras, taladros y hasta una hidrolavadora por una cuota anual de 30 dólares.\n\n"
          "Su fundador, {personm}, dice que la idea surgió al ver que cada cochera de {street} guardaba el mismo equipo sin usar."},
    {"cat": "lifestyle", "t": "Caminatas de invierno: {n} senderos tranquilos cerca de {city}",
     "b": "No hace falta salir de la ciudad para encontrar senderos tranquilos. Elegimos {n} caminatas cerca de {city}, desde un circuito plano en {park} hasta una subida con vista a la ciudad.\n\n"
          "La mayoría de las rutas mide menos de cinco kilómetros y se puede llegar en autobús."},
    {"cat": "opinion", "t": "Opinión: {city} necesita {thing}, no otro estudio",
     "v": {"thing": ["cruces seguros en {street}", "más baños públicos", "autobuses cada diez minutos", "un plan real de vivienda asequible"]},
     "b": "Durante años, {city} ha estudiado la necesidad de {thing}, y durante años nada ha cambiado. Los informes se quedan en un cajón mientras los vecinos de {hood} esperan.\n\n"
          "El concejo tiene el dinero en el presupuesto de este año. Lo que falta es voluntad. {person} es vecina de {hood}."},
    {"cat": "opinion", "t": "Cartas de los lectores: el rediseño de {street} en {hood}",
     "b": "Nuestros lectores escribieron esta semana sobre el plan para rediseñar {street}. Varios apoyan banquetas más anchas; otros temen que la pérdida de estacionamiento afecte a los pequeños comercios.\n\n"
          "Un lector de {hood} propone un periodo de prueba antes de construir. Las cartas fueron editadas por extensión."},
],
"fr": [
    {"cat": "local", "t": "Des citoyens de {hood} réclament plus d'éclairage sur {street}",
     "b": "Un groupe de résidents de {hood} a déposé {day} au conseil municipal de {city} une pétition de {num} signatures pour obtenir un meilleur éclairage sur {street}.\n\n"
          "« Dès 17 h, on ne se sent plus en sécurité », explique {person}, mère de deux enfants. La Ville promet d'évaluer le secteur et d'inscrire les travaux au prochain budget."},
    {"cat": "local", "t": "{city} ouvre {n} haltes-chaleur pour l'hiver",
     "b": "La Ville de {city} a ouvert {n} haltes-chaleur {day}, dont une à {venue}, en prévision des nuits froides annoncées cette semaine.\n\n"
          "Les haltes sont ouvertes de 19 h à 7 h et offrent des lits de camp, des boissons chaudes et de quoi recharger un téléphone. Des intervenants de rue accompagneront les personnes en situation d'itinérance."},
    {"cat": "politics", "t": "Le conseil de {city} adopte un budget de {money}",
     "b": "Le conseil municipal de {city} a adopté {day} un budget de {money} pour l'an prochain, avec davantage d'argent pour la réfection des rues et la bibliothèque de {hood}.\n\n"
          "La conseillère {person} a voté contre, estimant que le logement abordable est négligé. Le compte de taxes moyen augmentera de {n} pour cent."},
    {"cat": "politics", "t": "Élection partielle dans {hood} : faible participation",
     "b": "À peine {pct} pour cent des électeurs inscrits ont voté {day} lors de l'élection partielle dans le district de {hood}.\n\n"
          "{person}, ancienne enseignante, l'a emporté avec un peu plus de la moitié des voix. Elle promet de s'attaquer à la sécurité sur {street} et au transport en commun."},
    {"cat": "business", "t": "{biz} ouvre une deuxième adresse dans {hood}",
     "b": "{biz}, qui a commencé dans un kiosque de marché public, ouvrira une deuxième succursale sur {street} le mois prochain.\n\n"
          "La propriétaire, {person}, embauchera {n} personnes du quartier. « Nos clients nous demandaient d'être plus proches », explique-t-elle."},
    {"cat": "business", "t": "Travaux sur {street} à {city} : les commerçants crient à l'aide",
     "b": "Les commerçants de {street} affirment que les travaux routiers ont fait chuter leur chiffre d'affaires de près de {pct} pour cent.\n\n"
          "La Ville offre une aide pouvant atteindre 5 000 $, mais peu l'ont reçue. « Les gens pensent qu'on est fermés », déplore {person}, propriétaire d'une boulangerie."},
    {"cat": "sports", "t": "Les {team} l'emportent {score} contre les {rival}",
     "v": {"score": ["4-2", "3-1", "5-4 en prolongation", "2-1 en tirs de barrage"]},
     "b": "Les {team} ont battu les {rival} {score} {day} soir à {arena}, grâce à deux buts en troisième période.\n\n"
          "{personm} a été nommé première étoile du match. « On n'a jamais lâché », a dit l'entraîneur. L'équipe grimpe au deuxième rang de sa division."},
    {"cat": "sports", "t": "L'école {school} de {city} remporte son premier titre régional",
     "b": "L'équipe de l'école {school} a remporté {day} son premier championnat régional en plusieurs décennies, devant des gradins remplis de parents.\n\n"
          "L'élève {person} a marqué le point décisif. L'équipe disputera la demi-finale provinciale la fin de semaine prochaine."},
    {"cat": "entertainment", "t": "Quoi faire à {city} ce week-end : {thing}",
     "v": {"thing": ["un défilé de lanternes", "un salon de la bande dessinée", "du cinéma muet avec orgue", "un marché de Noël", "l'ouverture de la patinoire"]},
     "b": "Au programme ce week-end à {city} : {thing}, un marché de Noël au {park} et l'entrée gratuite dans les musées dimanche.\n\n"
          "Notre suggestion : les spectacles de fin de journée à {venue}, avec des groupes d'ici entre 18 h et 22 h. Habillez-vous chaudement."},
    {"cat": "entertainment", "t": "{venue} de {city} rouvre après des rénovations de {money}",
     "b": "{venue} a rouvert ses portes {day} après 18 mois de travaux de {money} : nouveaux sièges, scène agrandie et ascenseur.\n\n"
          "La directrice, {person}, assure que la plupart des spectacles coûteront moins de 30 $."},
    {"cat": "health", "t": "Vaccination contre la grippe : des cliniques sans rendez-vous à {city}",
     "b": "La vaccination contre la grippe et la COVID-19 est offerte gratuitement dans les pharmacies et les cliniques de {city}, a rappelé {day} la santé publique régionale.\n\n"
          "La Dre {person} note que les visites à l'urgence pour des infections respiratoires augmentent plus tôt que d'habitude. Une clinique à {venue} sera ouverte le samedi jusqu'en janvier."},
    {"cat": "health", "t": "La clinique de {hood} prolonge ses heures d'ouverture",
     "b": "Une clinique de proximité sur {street} restera ouverte jusqu'à 21 h en semaine dès le mois prochain, alors que l'attente pour un rendez-vous dépasse trois semaines.\n\n"
          "La clinique reçoit environ {num} patients par semaine. L'infirmière praticienne {person} estime que les parents qui travaillent en profiteront."},
    {"cat": "science-tech", "t": "La bibliothèque de {city} prête maintenant {thing}",
     "v": {"thing": ["des télescopes", "des ordinateurs portables", "des capteurs de qualité de l'air"]},
     "b": "Les abonnés de la bibliothèque de {city} peuvent désormais emprunter {thing}, dans le cadre d'un programme pour réduire la fracture numérique.\n\n"
          "Les {num} premiers appareils sont partis en une semaine. Le bibliothécaire {personm} note une forte demande dans {hood}."},
    {"cat": "science-tech", "t": "Des élèves de l'école {school} de {city} construisent une station météo",
     "b": "Des élèves de l'école {school} ont installé sur le toit une station météo qui publie en ligne la température, le vent et les précipitations toutes les cinq minutes.\n\n"
          "L'enseignant {personm} explique que le projet, né d'un laboratoire de physique, est devenu un service pour tout le quartier."},
    {"cat": "weather", "t": "Premier gel de la saison attendu à {city}",
     "b": "Les prévisionnistes annoncent le premier gel de la saison à {city} dans la nuit de {day}, avec des minimums près de zéro en périphérie.\n\n"
          "Les après-midi resteront doux et secs. Le météorologue {personm} conseille de rentrer les plantes fragiles."},
    {"cat": "weather", "t": "Avertissement de vents violents pour {city}",
     "b": "Environnement Canada a émis un avertissement de vents violents pour {city} jusqu'à {day} soir, avec des rafales pouvant atteindre 90 km/h.\n\n"
          "On recommande d'attacher les décorations et les bacs. Hydro a placé des équipes en attente en cas de pannes."},
    {"cat": "crime-safety", "t": "Vols par effraction dans {n} commerces de {street} à {city}",
     "b": "La police enquête sur une série de vols par effraction survenus la nuit dans {n} commerces de {street}, dans {hood}, dont une pharmacie et un salon de coiffure.\n\n"
          "Chaque fois, la vitrine a été fracassée et la caisse emportée. Personne n'a été blessé. Les enquêteurs demandent aux citoyens qui ont des caméras de les contacter."},
    {"cat": "crime-safety", "t": "Fraude téléphonique : des aînés de {city} ciblés",
     "b": "La police de {city} met en garde les aînés contre des fraudeurs qui se font passer pour des employés d'Hydro et exigent un paiement immédiat.\n\n"
          "Au moins {n} résidents de {hood} ont perdu de l'argent ce mois-ci. « Hydro ne demande jamais de paiement par carte-cadeau », rappelle le sergent {personm}."},
    {"cat": "education", "t": "Déjeuners gratuits pour tous les élèves de l'école {school} à {city}",
     "b": "Tous les élèves de l'école {school} auront droit à un déjeuner gratuit dès janvier, grâce à une subvention de {money}.\n\n"
          "La directrice {person} constate que plus d'enfants arrivent le ventre vide cet automne. Le repas sera servi en classe au début de la journée."},
    {"cat": "education", "t": "Francisation : longue liste d'attente dans {hood}",
     "b": "Les cours de francisation gratuits pour adultes offerts à {venue} ont une liste d'attente de {num} personnes, et l'organisme cherche des bénévoles.\n\n"
          "La coordonnatrice {person} explique que la plupart des élèves travaillent le jour et que les cours du soir sont les plus demandés."},
    {"cat": "food", "t": "Critique : {biz} fait découvrir {thing} dans {hood}",
     "v": {"thing": ["la cuisine libanaise", "les pâtes fraîches", "les dumplings du nord de la Chine", "le pain au levain", "la cuisine haïtienne"]},
     "b": "{biz} a ouvert ses portes en octobre sur {street} et nous a fait découvrir {thing} sous son meilleur jour.\n\n"
          "Les prix sont raisonnables, la plupart des plats coûtent moins de 20 $, et le service est chaleureux. Le chef {personm} change le menu au fil des saisons."},
    {"cat": "food", "t": "La banque alimentaire de {city} lance un appel avant les Fêtes",
     "b": "La banque alimentaire de {city} constate une hausse de {pct} pour cent des demandes par rapport à l'an dernier et manque de denrées avant les Fêtes.\n\n"
          "On a surtout besoin de protéines en conserve, de riz et de lait maternisé. Le directeur, {personm}, rappelle que les dons en argent vont plus loin."},
    {"cat": "lifestyle", "t": "Dans {hood}, on emprunte ses outils plutôt que de les acheter",
     "b": "Une outilthèque de {hood} prête échelles, perceuses et même une laveuse à pression pour une cotisation annuelle de 30 $.\n\n"
          "Son fondateur, {personm}, a eu l'idée en constatant que chaque garage de {street} contenait le même équipement inutilisé."},
    {"cat": "lifestyle", "t": "Marcher l'hiver : {n} sentiers tranquilles près de {city}",
     "b": "Pas besoin de quitter la ville pour marcher au calme cet hiver. Nous avons choisi {n} sentiers près de {city}, d'une boucle plate au {park} à une montée avec vue sur la ville.\n\n"
          "Apportez des crampons s'il a neigé et consultez l'état des sentiers avant de partir."},
    {"cat": "opinion", "t": "Opinion : {city} a besoin de {thing}, pas d'une autre étude",
     "v": {"thing": ["traverses sécuritaires sur {street}", "toilettes publiques", "bus aux dix minutes", "un vrai plan pour le logement abordable"]},
     "b": "Depuis des années, {city} étudie le besoin de {thing}, et depuis des années rien ne bouge. Les rapports dorment sur les tablettes pendant que les résidents de {hood} attendent.\n\n"
          "L'argent est au budget cette année. Ce qui manque, c'est la volonté. {person} habite {hood}."},
    {"cat": "opinion", "t": "Courrier des lecteurs : le réaménagement de {street} dans {hood}",
     "b": "Nos lecteurs nous ont écrit cette semaine au sujet du réaménagement de {street}. Plusieurs appuient l'élargissement des trottoirs; d'autres craignent la perte de stationnement pour les petits commerces.\n\n"
          "Un lecteur de {hood} propose une période d'essai. Les lettres ont été abrégées."},
],
}
